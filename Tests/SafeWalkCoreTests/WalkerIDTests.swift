import Foundation
import SafeWalkCore
import Testing

@Suite struct WalkerIDTests {
    @Test func acceptsLettersDigitsUnderscoreAndDash() throws {
        let id = try WalkerID("Alice_01-x")
        #expect(id.rawValue == "Alice_01-x")
    }

    @Test func acceptsSixtyFourCharacters() throws {
        let raw = String(repeating: "a", count: 64)
        #expect(try WalkerID(raw).rawValue == raw)
    }

    @Test func refusesSixtyFiveCharactersAsTooLong() {
        #expect(throws: IdentifierError.tooLong(length: 65)) {
            try WalkerID(String(repeating: "a", count: 65))
        }
    }

    @Test func refusesEmpty() {
        #expect(throws: IdentifierError.empty) { try WalkerID("") }
    }

    @Test(arguments: ["a/b", "a+b", "a#b", "+", "#", "/"])
    func refusesTopicSeparatorsAndWildcards(raw: String) {
        #expect(WalkerID(validating: raw) == nil)
        let bad = raw.unicodeScalars.first { "/+#".unicodeScalars.contains($0) }!
        #expect(throws: IdentifierError.invalidCharacter(bad)) { try WalkerID(raw) }
    }

    @Test(arguments: ["josé", "jose\u{301}", "ａlice", "alice🚶", "ıstanbul", "аlice"])
    func refusesNonASCII(raw: String) {
        #expect(WalkerID(validating: raw) == nil)
    }

    @Test(arguments: [" alice", "alice ", "al ice", "alice\n", "a.b", "a$b"])
    func refusesSpacesControlCharactersAndPunctuation(raw: String) {
        #expect(WalkerID(validating: raw) == nil)
    }

    @Test func refusesNUL() {
        #expect(throws: IdentifierError.invalidCharacter("\u{0}")) { try WalkerID("a\u{0}b") }
    }

    @Test func reservesTheServiceTopicLevels() {
        #expect(throws: IdentifierError.reserved("_service")) { try WalkerID("_service") }
        #expect(throws: IdentifierError.reserved("_rejected")) { try WalkerID("_rejected") }
        #expect(throws: IdentifierError.reserved("_incidents")) { try WalkerID("_incidents") }
        #expect(throws: IdentifierError.reserved("_accounts")) { try WalkerID("_accounts") }
        #expect(WalkerID(validating: "_alice") != nil)
        #expect(ServiceName(validating: "_service") != nil)  // only walkers are restricted
    }

    /// `validate` compares an id with the reserved names only when it begins with `_`.
    @Test func everyReservedNameBeginsWithAnUnderscore() {
        #expect(!WalkerKind.reserved.isEmpty)
        for name in WalkerKind.reserved {
            #expect(name.hasPrefix("_"), "\(name)")
            #expect(throws: IdentifierError.reserved(name)) { try WalkerID(name) }
        }
        for kind in [ServiceKind.reserved, DeviceKind.reserved] { #expect(kind.allSatisfy { $0.hasPrefix("_") }) }
    }

    @Test func namesTheFirstBadCharacterAfterGoodOnes() {
        #expect(throws: IdentifierError.invalidCharacter("é")) { try WalkerID("abcé/") }
        #expect(throws: IdentifierError.invalidCharacter("/")) { try WalkerID("ab/é") }
    }

    @Test func decodingValidates() throws {
        #expect(try JSONDecoder().decode(WalkerID.self, from: json(#""bob-2""#)) == walker("bob-2"))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(WalkerID.self, from: json(#""a/b""#)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(WalkerID.self, from: json(#""""#)) }
    }

    @Test func encodesAsABareString() throws {
        #expect(String(decoding: try JSONEncoder().encode(walker("bob")), as: UTF8.self) == #""bob""#)
    }

    @Test func describesItselfAsTheRawId() {
        #expect("\(walker("carol"))" == "carol")
    }

    @Test func errorsExplainThemselves() {
        #expect(IdentifierError.invalidCharacter("/").description == "invalid character U+2F")
        #expect(IdentifierError.tooLong(length: 65).description.contains("65"))
    }

    @Test func serviceNameConstantsAreValidNames() {
        let names: [ServiceName] = [.locationIngest, .watchdog, .companionChat, .notifier, .contactsStore]
        for name in names { #expect(ServiceName(validating: name.rawValue) == name) }
        #expect(
            names.map(\.rawValue) == ["location-ingest", "watchdog", "companion-chat", "notifier", "contacts-store"])
    }
}
