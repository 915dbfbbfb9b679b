import ContactsStoreKit
import SafeWalkCore
import Testing

@Suite struct ContactRulesTests {
    let rules = ContactRules(limit: 3)

    func add(_ name: String, _ phone: String, to entries: [ContactEntry] = [], id: String = "c1") throws(ContactError)
        -> ContactEntry
    {
        try rules.add(ContactAdd(name: name, phone: phone), id: id, to: entries)
    }

    @Test func namesAreTrimmedSoATrailingSpaceIsNotASecondContact() throws {
        let mum = try add("  Mum  ", "512-471-4441")
        #expect(mum.name == "Mum")
        #expect(throws: ContactError.duplicateName) { try add("Mum ", "512-555-0100", to: [mum]) }
        #expect(throws: ContactError.duplicateName) { try add("mum", "512-555-0100", to: [mum]) }
    }

    @Test func innerWhitespaceIsCollapsed() throws {
        #expect(try add("Aunt \t  May", "5125550100").name == "Aunt May")
    }

    @Test func theSameNumberWrittenDifferentlyIsADuplicate() throws {
        let mum = try add("Mum", "512-471-4441")
        #expect(throws: ContactError.duplicatePhone) { try add("Mother", "(512) 471 4441", to: [mum]) }
        #expect(throws: ContactError.duplicatePhone) { try add("Mother", "+1 512 471 4441", to: [mum]) }
    }

    @Test func thePerWalkerLimitIsEnforced() throws {
        var entries: [ContactEntry] = []
        for i in 0..<3 { entries.append(try add("C\(i)", "51255501\(10 + i)", to: entries, id: "c\(i)")) }
        #expect(throws: ContactError.limitReached(max: 3)) { try add("One more", "5125550199", to: entries) }
    }

    @Test func lengthLimitsAndEmptyNamesAreRefused() {
        #expect(throws: ContactError.emptyName) { try add("   ", "5125550100") }
        #expect(throws: ContactError.nameTooLong(max: 64)) { try add(String(repeating: "n", count: 65), "5125550100") }
        #expect(throws: ContactError.phoneTooLong(max: 32)) { try add("Long", String(repeating: "5", count: 33)) }
    }

    @Test func anUndialableNumberIsKeptAndFlaggedWithItsReason() throws {
        let contact = try add("Vanity", "1-800-FLOWERS").contact
        #expect(!contact.dialable)
        #expect(contact.reason == .containsLetters)
        #expect(contact.phone == "1-800-FLOWERS")
        let good = try add("Mum", "(512) 471-4441").contact
        #expect(good.dialable && good.phone == "+15124714441" && good.reason == nil)
    }

    @Test func removingNeedsAnExistingID() throws {
        let mum = try add("Mum", "5124714441")
        #expect(try rules.remove(id: "c1", from: [mum]).isEmpty)
        #expect(throws: ContactError.notFound) { try rules.remove(id: "c9", from: [mum]) }
        #expect(throws: ContactError.invalidID) { try rules.remove(id: "", from: [mum]) }
    }
}
