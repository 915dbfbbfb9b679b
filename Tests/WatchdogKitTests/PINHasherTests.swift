import SafeWalkCore
import Testing
import WatchdogKit

/// The real PBKDF2 (swift-crypto) behind the PIN verdicts.
@Suite struct PINHasherTests {
    let hasher = PINHasher()

    @Test func eachPINIsRecognisedAndNothingElse() throws {
        let hashes = hasher.hashes(for: PINChange(cancel: try #require(PIN("1234")), duress: PIN("9876")))
        #expect(hasher.verdict(PIN("1234"), against: hashes) == .cancel)
        #expect(hasher.verdict(PIN("9876"), against: hashes) == .duress)
        #expect(hasher.verdict(PIN("1235"), against: hashes) == .wrong)
        #expect(hasher.verdict(PIN("12345"), against: hashes) == .wrong)
        #expect(hasher.verdict(nil, against: hashes) == .notGiven)
        #expect(hasher.verdict(PIN("1234"), against: nil) == .notGiven)
    }

    @Test func withoutADuressPINNothingIsDuress() throws {
        let hashes = hasher.hashes(for: PINChange(cancel: try #require(PIN("1234")), duress: nil))
        #expect(hasher.verdict(PIN("1234"), against: hashes) == .cancel)
        #expect(hasher.verdict(PIN("0000"), against: hashes) == .wrong)
    }

    @Test func theStoredHashesAreSaltedAndNeverThePIN() throws {
        let change = PINChange(cancel: try #require(PIN("1234")), duress: nil)
        let a = hasher.hashes(for: change)
        let b = hasher.hashes(for: change)
        #expect(a.salt != b.salt)
        #expect(a.cancel != b.cancel, "the same PIN under two salts must not hash alike")
        #expect(a.cancel.count == PINHasher.hashBytes)
        #expect(!a.cancel.starts(with: Array("1234".utf8)))
    }

    @Test func aPINIsFourToTwelveDigitsAndNeverPrinted() {
        #expect(PIN("123") == nil)
        #expect(PIN("1234567890123") == nil)
        #expect(PIN("12a4") == nil)
        #expect(PIN(" 1234") == nil)
        #expect(PIN("１２３４") == nil)  // full-width digits are not ASCII digits
        #expect("\(PIN("1234")!)" == "<pin>")
        #expect(String(reflecting: Action(id: "a", kind: .imSafe, pin: PIN("1234"))).contains("1234") == false)
    }
}
