import ArgumentParser
import Foundation
import Testing

@testable import SafeWalkCLI

@Suite struct UserAddTests {
    @Test func aWalkerNeedsAnEmailAndAnHTTPWebURL() throws {
        #expect(throws: (any Error).self) { try SafeWalkCommand.parseAsRoot(["user", "add", "alice"]) }
        #expect(throws: (any Error).self) {
            try SafeWalkCommand.parseAsRoot(["user", "add", "alice", "--email", "a@example.org", "--web", "ftp://x"])
        }
        #expect(throws: (any Error).self) {
            try SafeWalkCommand.parseAsRoot(["user", "add", "alice", "--email", "a@example.org", "--file", "p"])
        }
        let command = try SafeWalkCommand.parseAsRoot(
            ["user", "add", "alice", "--email", "a@example.org", "--web", "https://safewalk.example.org"])
        let add = try #require(command as? UserAddCommand)
        #expect(add.email == "a@example.org")
    }

    @Test func aServiceUserTakesNoEmail() throws {
        #expect(throws: (any Error).self) {
            try SafeWalkCommand.parseAsRoot(["user", "add", "watchdog", "--service", "--email", "w@example.org"])
        }
        #expect(throws: (any Error).self) { try SafeWalkCommand.parseAsRoot(["user", "add", "watchdog"]) }
        _ = try SafeWalkCommand.parseAsRoot(["user", "add", "broker-admin", "--service"])
    }

    @Test func refusalsNameTheFieldAndReason() {
        let body = Data(
            #"{"error":{"field":"email","reason":"taken","message":"That e-mail already has an account."}}"#.utf8)
        #expect(throws: CLIError.refused("sign-up refused (HTTP 409): email: That e-mail already has an account.")) {
            try AccountSignUp.judge(status: 409, body: body)
        }
        let bare = Data(#"{"error":{"field":"password","reason":"needs_digit"}}"#.utf8)
        #expect(throws: CLIError.refused("sign-up refused (HTTP 400): password: needs_digit")) {
            try AccountSignUp.judge(status: 400, body: bare)
        }
        #expect(throws: CLIError.refused("sign-up refused (HTTP 502)")) {
            try AccountSignUp.judge(status: 502, body: Data("<html>".utf8))
        }
        #expect(throws: Never.self) { try AccountSignUp.judge(status: 201, body: Data()) }
    }

    @Test func generatedPasswordsMeetTheSignUpRule() {
        var seen = Set<String>()
        for _ in 0..<200 {
            let password = AccountSignUp.generatedPassword()
            #expect(password.count == 20)
            let hasDigit = password.contains(where: \.isNumber)
            let hasSpecial = password.contains { !$0.isLetter && !$0.isNumber }
            #expect(hasDigit && hasSpecial)
            seen.insert(password)
        }
        #expect(seen.count == 200)
    }
}
