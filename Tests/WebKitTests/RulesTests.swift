import SafeWalkCore
import SafeWalkWebKit
import Testing

@Suite struct UsernameRuleTests {
    @Test func aUsernameIsATrimmedWalkerID() throws {
        #expect(try UsernameRule.check("  alice_01-x \n").rawValue == "alice_01-x")
    }

    @Test(arguments: [
        ("", FieldError.Reason.empty), ("   ", .empty), (String(repeating: "a", count: 65), .tooLong),
        ("al ice", .invalidCharacters), ("alice/x", .invalidCharacters), ("älice", .invalidCharacters),
        ("a+b", .invalidCharacters), ("a#b", .invalidCharacters), ("a.owntracks", .invalidCharacters),
    ])
    func malformedUsernamesAreRefusedWithTheReason(name: String, reason: FieldError.Reason) {
        #expect(throws: FieldError(.username, reason)) { try UsernameRule.check(name) }
    }

    @Test(arguments: [
        "watchdog", "location-ingest", "companion-chat", "notifier", "contacts-store", "channel-example", "operator",
        "web", "broker-admin", "admin", "root", "Admin", "ROOT", "WatchDog", "_service", "_accounts", "_anything",
    ])
    func namesThatCouldBeMistakenForTheSystemAreReserved(name: String) {
        #expect(throws: FieldError(.username, .reserved)) { try UsernameRule.check(name) }
    }

    @Test func uniquenessIgnoresCase() throws {
        #expect(UsernameRule.key(try WalkerID("Alice")) == UsernameRule.key(try WalkerID("aLICE")))
        #expect(UsernameRule.lookupKey(" Alice ") == "alice")
        #expect(UsernameRule.lookupKey("not a name") == nil)
    }
}

@Suite struct EmailRuleTests {
    @Test func aWellFormedAddressIsTrimmedAndKeyedRegardlessOfCase() throws {
        #expect(try EmailRule.check("  Alice@Example.ORG ") == "Alice@Example.ORG")
        #expect(EmailRule.key("Alice@Example.ORG") == "alice@example.org")
        #expect(try EmailRule.check("a.b+c@mail.example.co.uk") == "a.b+c@mail.example.co.uk")
    }

    @Test(arguments: [
        ("", FieldError.Reason.empty), ("  ", .empty), ("alice", .invalid), ("@example.org", .invalid),
        ("alice@", .invalid), ("alice@localhost", .invalid), ("alice@@example.org", .invalid),
        ("a@b@example.org", .invalid), ("alice@example..org", .invalid), ("alice@.example.org", .invalid),
        ("alice@example.org.", .invalid), ("al ice@example.org", .invalidCharacters),
        ("alice@exa\u{0}mple.org", .invalidCharacters), ("alice@exa\u{7}mple.org", .invalidCharacters),
        ("alice@exa\u{200B}mple.org", .invalidCharacters),
        (String(repeating: "a", count: 250) + "@x.org", .tooLong),
    ])
    func malformedAddressesAreRefusedWithTheReason(address: String, reason: FieldError.Reason) {
        #expect(throws: FieldError(.email, reason)) { try EmailRule.check(address) }
    }

    @Test func theLongestAcceptedAddressIs254Bytes() throws {
        let address = String(repeating: "a", count: 248) + "@x.org"
        #expect(address.utf8.count == 254)
        #expect(try EmailRule.check(address) == address)
    }
}

@Suite struct PasswordRuleTests {
    @Test(arguments: ["correct-horse1", "Passw0rd!", "12345678 ", "ünïcødé9§", "a1!aaaaa"])
    func goodPasswordsPass(password: String) throws {
        try PasswordRule.check(password)
    }

    @Test(arguments: [
        ("", FieldError.Reason.tooShort), ("ab1!efg", .tooShort), ("abcdefgh!", .needsDigit),
        ("abcdefgh1", .needsSpecial), ("Abcdefg٣", .needsSpecial), ("abcdefg½!", .needsDigit),
        (String(repeating: "a1!", count: 86), .tooLong), ("abcd1!\u{0}efg", .invalidCharacters),
        ("abcd1!\u{1B}efg", .invalidCharacters),
    ])
    func weakPasswordsAreRefusedWithTheReason(password: String, reason: FieldError.Reason) {
        #expect(throws: FieldError(.password, reason)) { try PasswordRule.check(password) }
    }

    @Test func lengthCountsCharactersAPersonSees() throws {
        // Eight characters, one of them a letter with a combining accent (two code points).
        try PasswordRule.check("e\u{301}bcde1!x")
        #expect(throws: FieldError(.password, .tooShort)) { try PasswordRule.check("e\u{301}bcd1!x") }
        #expect(throws: FieldError(.newPassword, .needsDigit)) { try PasswordRule.check("abcdefg!", as: .newPassword) }
    }

    @Test func twoHundredFiftySixCharactersAreAllowed() throws {
        try PasswordRule.check(String(repeating: "a", count: 254) + "1!")
    }
}

@Suite struct SignUpFormTests {
    @Test func theFirstWrongFieldIsReportedInFormOrder() {
        #expect(throws: FieldError(.username, .reserved)) {
            try SignUpForm(username: "admin", email: "bad", password: "short")
        }
        #expect(throws: FieldError(.email, .invalid)) {
            try SignUpForm(username: "alice", email: "bad", password: "short")
        }
        #expect(throws: FieldError(.password, .tooShort)) {
            try SignUpForm(username: "alice", email: "a@example.org", password: "short")
        }
    }

    @Test func aGoodFormKeepsThePasswordExactlyAsTyped() throws {
        let form = try SignUpForm(username: " Alice ", email: " A@Example.org", password: " pass word 1 ")
        #expect(form.username.rawValue == "Alice" && form.usernameKey == "alice")
        #expect(form.email == "A@Example.org" && form.emailKey == "a@example.org")
        #expect(form.password == " pass word 1 ")
    }
}
