import SafeWalkCore
import Testing

@Suite struct PhoneNumberTests {
    @Test(arguments: [
        "5124714441", "512-471-4441", "(512) 471-4441", "512.471.4441", "  512 471 4441 ", "+1 512 471 4441",
        "1-512-471-4441", "+1 (512) 471-4441", "512\u{00A0}471\u{00A0}4441",
    ])
    func usNumbersInAnyCommonFormatBecomeE164(raw: String) {
        #expect(PhoneNumber.normalise(raw) == .dialable("+15124714441"))
    }

    @Test func internationalNumbersKeepTheirPlus() {
        #expect(PhoneNumber.normalise("+44 20 7946 0958") == .dialable("+442079460958"))
    }

    @Test func otherNationalNumbersStayNational() {
        #expect(PhoneNumber.normalise("020 7946 0958") == .dialable("02079460958"))
        #expect(PhoneNumber.normalise("471-4441") == .dialable("4714441"))
        // 10 digits starting 0 or 1 are not North American numbers, so no +1 is guessed.
        #expect(PhoneNumber.normalise("0123456789") == .dialable("0123456789"))
    }

    @Test(arguments: ["", "   ", "\n\t"])
    func emptyIsUndialable(raw: String) {
        #expect(PhoneNumber.normalise(raw) == .undialable(.empty))
    }

    @Test(arguments: ["1-800-FLOWERS", "call mom", "512 471 4441 ext 5", "512471444l", "Ｌ5124714441"])
    func lettersAreNeverGuessedAt(raw: String) {
        #expect(PhoneNumber.normalise(raw) == .undialable(.containsLetters))
    }

    @Test(arguments: ["()-..", "+", "( )", "---"])
    func onlyPunctuationHasNoDigits(raw: String) {
        #expect(PhoneNumber.normalise(raw) == .undialable(.noDigits))
    }

    @Test func sevenToFifteenDigitsAreDialable() {
        #expect(PhoneNumber.normalise("123456") == .undialable(.tooShort))
        #expect(PhoneNumber.normalise("1234567") == .dialable("1234567"))
        #expect(PhoneNumber.normalise("+123456789012345") == .dialable("+123456789012345"))
        #expect(PhoneNumber.normalise("+1234567890123456") == .undialable(.tooLong))
    }

    @Test(arguments: ["512+4714441", "++15124714441", "+1+5124714441", "5124714441+"])
    func aPlusOnlyBelongsAtTheStart(raw: String) {
        #expect(PhoneNumber.normalise(raw) == .undialable(.misplacedPlus))
    }

    @Test(arguments: ["512*471#4441", "512/471/4441", "5124714441,", "512_471_4441", "☎5124714441"])
    func otherCharactersAreUndialable(raw: String) {
        #expect(PhoneNumber.normalise(raw) == .undialable(.invalidCharacter))
    }

    @Test(arguments: ["٥١٢٤٧١٤٤٤١", "５１２４７１４４４１", "5\u{301}124714441"])
    func digitsFromOtherScriptsAreUndialable(raw: String) {
        #expect(PhoneNumber.normalise(raw).dialable == nil)
    }

    @Test func shortEmergencyCodesNeedALowerMinimum() {
        #expect(PhoneNumber.normalise("911") == .undialable(.tooShort))
        #expect(PhoneNumber.normalise("911", minimumDigits: 3) == .dialable("911"))
    }

    @Test func everyReasonExplainsItselfInPlainWords() {
        let explanations = UndialableReason.allCases.map(\.explanation)
        #expect(Set(explanations).count == UndialableReason.allCases.count)
        #expect(explanations.allSatisfy { $0.hasSuffix(".") })
    }

    @Test func maskedNumbersShowOnlyTheLastFourDigits() {
        #expect(PhoneNumber.masked("+15124714441") == "+*******4441")
        #expect(PhoneNumber.masked("4714441") == "***4441")
        #expect(PhoneNumber.masked("911") == "***")
    }
}
