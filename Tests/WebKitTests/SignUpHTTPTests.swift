import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SafeWalkWebKit
import TestSupport
import Testing

@Suite(.holdsResources) struct SignUpHTTPTests {
    @Test func aSignUpCreatesTheAccountAndItsBrokerLogin() async throws {
        let web = try WebFixture()
        try await web.live { client in
            let response = try await client.signUp(" alice ", email: "Alice@Example.org", password: "walk-safe-1")
            #expect(response.status == .created)
            #expect(response.json["username"] as? String == "alice")
            #expect(response.json["email"] as? String == "Alice@Example.org")
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(web.broker.state.withLock { $0.logins["alice"] } == "walk-safe-1")
            #expect(try await client.signIn("alice").status == .ok)
        }
    }

    /// Each body and the field and reason it is refused with.
    static let fieldErrors: [(String, HTTPResponse.Status, FieldError.Field, FieldError.Reason)] = [
        (#"{"email":"a@example.org","password":"walk-safe-1"}"#, .badRequest, .username, .missing),
        (#"{"username":"alice","password":"walk-safe-1"}"#, .badRequest, .email, .missing),
        (#"{"username":"alice","email":"a@example.org"}"#, .badRequest, .password, .missing),
        (#"{"username":7,"email":"a@example.org","password":"walk-safe-1"}"#, .badRequest, .username, .wrongType),
        (#"{"username":"  ","email":"a@example.org","password":"walk-safe-1"}"#, .badRequest, .username, .empty),
        (
            #"{"username":"al ice","email":"a@example.org","password":"walk-safe-1"}"#, .badRequest, .username,
            .invalidCharacters
        ),
        (
            #"{"username":"Operator","email":"a@example.org","password":"walk-safe-1"}"#, .badRequest, .username,
            .reserved
        ),
        (
            #"{"username":"_accounts","email":"a@example.org","password":"walk-safe-1"}"#, .badRequest, .username,
            .reserved
        ),
        (#"{"username":"alice","email":"a@localhost","password":"walk-safe-1"}"#, .badRequest, .email, .invalid),
        (
            #"{"username":"alice","email":"a b@example.org","password":"walk-safe-1"}"#, .badRequest, .email,
            .invalidCharacters
        ),
        (#"{"username":"alice","email":null,"password":"walk-safe-1"}"#, .badRequest, .email, .wrongType),
        (#"{"username":"alice","email":"a@example.org","password":"ab1!"}"#, .badRequest, .password, .tooShort),
        (#"{"username":"alice","email":"a@example.org","password":"walksafe!"}"#, .badRequest, .password, .needsDigit),
        (
            #"{"username":"alice","email":"a@example.org","password":"walksafe1"}"#, .badRequest, .password,
            .needsSpecial
        ),
    ]

    @Test func eachFieldErrorNamesTheFieldAndTheReason() async throws {
        let web = try WebFixture(settings: Self.unlimited)
        try await web.live { client in
            for (body, status, field, reason) in Self.fieldErrors {
                let response = try await client.send(.post, "/v1/accounts", json: body)
                #expect(response.status == status, "\(body)")
                #expect(response.refusal?.field == field && response.refusal?.reason == reason.rawValue, "\(body)")
                #expect(response.refusal?.message.isEmpty == false)
            }
            #expect(web.broker.operations.isEmpty)
        }
    }

    @Test func aNameOrAddressTakenInAnotherCaseIsAConflict() async throws {
        let web = try WebFixture()
        try await web.live { client in
            try await client.signUp("alice", email: "alice@example.org")
            let sameName = try await client.signUp("ALICE", email: "other@example.org")
            #expect(sameName.status == .conflict)
            #expect(sameName.refusal?.field == .username && sameName.refusal?.reason == "taken")
            let sameAddress = try await client.signUp("bob", email: "ALICE@EXAMPLE.ORG")
            #expect(sameAddress.status == .conflict)
            #expect(sameAddress.refusal?.field == .email && sameAddress.refusal?.reason == "taken")
            #expect(web.broker.operations == [.createWalker])
        }
    }

    @Test func tooManySignUpsFromOneAddressAreRefusedUntilTheyAreEarnedBack() async throws {
        var settings = WebSettings()
        settings.limits = RateLimits(signUpPerAddress: RateRule(burst: 3, per: .seconds(600)))
        let web = try WebFixture(settings: settings)
        try await web.live { client in
            for name in ["a1", "a2", "admin"] { try await client.signUp(name) }
            let refused = try await client.signUp("a4")
            #expect(refused.status == .tooManyRequests)
            #expect(refused.refusal?.reason == "rateLimited" && refused.refusal?.field == nil)
            #expect(refused.headers[.retryAfter] == "200")
            await web.clock.advance(by: .seconds(200))
            #expect(try await client.signUp("a4").status == .created)
            #expect(try await client.signUp("a5").status == .tooManyRequests)
        }
    }

    @Test func addressesBehindTheTrustedProxyAreLimitedOneByOne() async throws {
        var settings = WebSettings()
        settings.limits = RateLimits(signUpPerAddress: RateRule(burst: 1, per: .seconds(600)))
        settings.trustedProxies = ["127.0.0.1", "::1"]
        let web = try WebFixture(settings: settings)
        try await web.live { client in
            var statuses: [HTTPResponse.Status] = []
            for (name, address) in [("p1", "203.0.113.1"), ("p2", "203.0.113.2"), ("p3", "203.0.113.1")] {
                statuses.append(try await Self.signUp(client, name, from: address))
            }
            #expect(statuses == [.created, .created, .tooManyRequests])
        }
    }

    static func signUp(_ client: some TestClientProtocol, _ name: String, from address: String) async throws
        -> HTTPResponse.Status
    {
        try await client.send(
            .post, "/v1/accounts",
            json: #"{"username":"\#(name)","email":"\#(name)@example.org","password":"walk-safe-1"}"#,
            headers: [HTTPField.Name("X-Forwarded-For")!: "198.51.100.9, \(address)"]
        ).status
    }

    @Test func aBrokerAdminThatDoesNotAnswerLeavesNoAccountBehind() async throws {
        let web = try WebFixture()
        try await web.live { client in
            web.broker.state.withLock { $0.down = true }
            let refused = try await client.signUp("alice")
            #expect(refused.status == .serviceUnavailable && refused.refusal?.reason == "unavailable")
            #expect(try await client.signIn("alice").status == .unauthorized)
            web.broker.state.withLock { $0.down = false }
            #expect(try await client.signUp("alice").status == .created)
        }
    }

    /// broker-admin made the login but its answer was lost: the sign-up failed, the login stayed.
    /// The retry takes it over instead of finding the name blocked for good.
    @Test func aLoginLeftByASignUpWhoseAnswerWasLostIsTakenOverByTheRetry() async throws {
        let web = try WebFixture()
        try await web.live { (client: any TestClientProtocol) async throws in
            web.broker.state.withLock { $0.lostAnswers = [.createWalker] }
            #expect(try await client.signUp("carol", password: "first-try-1").status == .serviceUnavailable)
            #expect(web.broker.state.withLock { $0.logins["carol"] } == "first-try-1")
            #expect(try await web.accounts.database.accountCount() == 0)
            web.broker.state.withLock { $0.lostAnswers = [] }
            web.broker.state.withLock { $0.devices["carol"] = "issued before" }
            web.broker.state.withLock { _ = $0.disabled.insert("carol") }
            #expect(try await client.signUp("carol", password: "second-try-2").status == .created)
            let state = web.broker.state.withLock { $0 }
            #expect(state.logins["carol"] == "second-try-2")
            #expect(state.devices["carol"] == nil && !state.disabled.contains("carol"))
            #expect(state.commands.suffix(4).map(\.op) == [.createWalker, .deleteDevice, .setPassword, .enable])
            #expect(try await client.signIn("carol", password: "second-try-2").status == .ok)
        }
    }

    @Test func aLoginThatCannotBeTakenOverLeavesNoAccount() async throws {
        let web = try WebFixture()
        web.broker.state.withLock { $0.logins["carol"] = "left behind" }
        try await web.live { client in
            web.broker.state.withLock { $0.lostAnswers = [.setPassword] }
            let refused = try await client.signUp("carol")
            #expect(refused.status == .serviceUnavailable && refused.refusal?.reason == "unavailable")
            #expect(try await web.accounts.database.accountCount() == 0)
        }
    }

    static var unlimited: WebSettings {
        var settings = WebSettings()
        let many = RateRule(burst: 10_000, per: .seconds(1))
        settings.limits = RateLimits(
            signUpPerAddress: many, signUpPerAccount: many, signInPerAddress: many, signInPerAccount: many)
        return settings
    }
}
