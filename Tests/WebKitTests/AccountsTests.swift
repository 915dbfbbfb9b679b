import Foundation
import SafeWalkCore
import SafeWalkService
import SafeWalkWebKit
import TestSupport
import Testing

/// ``Accounts`` without HTTP: what happens between requests and across a restart.
@Suite(.holdsResources) struct AccountsTests {
    @Test func anOlderHashIsRedoneWithTheCurrentRoundsAtTheNextGoodSignIn() async throws {
        let web = try WebFixture()
        _ = try await web.accounts.signUp(
            username: "alice", email: "a@example.org", password: "walk-safe-1", client: "c")
        let weaker = PasswordHasher(rounds: 500).hash("walk-safe-1")
        try await web.accounts.database.setPasswordHash(weaker, key: "alice")
        _ = try await web.accounts.signIn(username: "alice", password: "walk-safe-1", client: "c")
        let account = try #require(try await web.accounts.database.account(key: "alice"))
        #expect(account.passwordHash.rounds == 1_000)
        #expect(web.accounts.passwords.hasher.verify("walk-safe-1", against: account.passwordHash))
    }

    @Test func anErasureCutShortByAStopIsFinishedByTheResumer() async throws {
        let web = try WebFixture()
        _ = try await web.accounts.signUp(
            username: "alice", email: "a@example.org", password: "walk-safe-1", client: "c")
        // The process stopped right after recording the erasure: nothing was asked yet.
        let erasure = try #require(
            try await web.accounts.database.startErasure(
                id: "e1", key: "alice", remaining: ErasingServices.rest, at: Date()))
        #expect(erasure.phase == .started)
        await ErasureResumer(accounts: web.accounts).resumeAll()
        #expect(web.broker.operations == [.createWalker, .disable])
        #expect(web.services.asked.first == .watchdog && web.services.asked.count == 6)
        #expect(try await web.accounts.database.account(key: "alice") == nil)
        #expect(try await web.accounts.database.erasures().isEmpty)
    }

    @Test func theResumerGivesTheAccountBackWhenTheWatchdogRefuses() async throws {
        let web = try WebFixture()
        web.services.state.withLock { $0.refusals[.watchdog] = .openIncident }
        _ = try await web.accounts.signUp(
            username: "alice", email: "a@example.org", password: "walk-safe-1", client: "c")
        _ = try await web.accounts.database.startErasure(
            id: "e1", key: "alice", remaining: ErasingServices.rest, at: Date())
        await ErasureResumer(accounts: web.accounts).resumeAll()
        #expect(try await web.accounts.database.account(key: "alice")?.state == .active)
        #expect(web.broker.operations == [.createWalker, .disable, .enable])
        #expect(try await web.accounts.database.erasures().isEmpty)
    }

    @Test func theResumerLeavesAStartedErasureForLaterWhenTheWatchdogIsSilent() async throws {
        var settings = WebSettings()
        settings.commandWait = .seconds(1)
        let web = try WebFixture(settings: settings)
        web.services.state.withLock { $0.silent = [.watchdog] }
        _ = try await web.accounts.signUp(
            username: "alice", email: "a@example.org", password: "walk-safe-1", client: "c")
        _ = try await web.accounts.database.startErasure(
            id: "e1", key: "alice", remaining: ErasingServices.rest, at: Date())
        await ErasureResumer(accounts: web.accounts).resumeAll()
        // Nobody asked to wait for this one: it is not given up, only tried again later.
        #expect(try await web.accounts.database.account(key: "alice")?.state == .erasing)
        #expect(try await web.accounts.database.erasures().map(\.phase) == [.started])
        web.services.state.withLock { $0.silent = [] }
        await ErasureResumer(accounts: web.accounts).resumeAll()
        #expect(try await web.accounts.database.account(key: "alice") == nil)
    }

    @Test func anUnfinishedSignUpIsForgottenAtStartUp() async throws {
        let web = try WebFixture()
        let form = try SignUpForm(username: "alice", email: "a@example.org", password: "walk-safe-1")
        _ = try await web.accounts.database.insertPending(form, hash: PasswordHasher(rounds: 1).hash("x"), at: Date())
        #expect(try await web.accounts.database.forgetPending() == ["alice"])
        #expect(try await web.accounts.database.accountCount() == 0)
    }

    @Test func settingsAreReadFromTheEnvironmentWithClearErrors() throws {
        let settings = try WebSettings(
            environment: .init([
                "SAFEWALK_HTTP_PORT": "9443", "SAFEWALK_TRUSTED_PROXY": "10.0.0.2, 10.0.0.3",
                "SAFEWALK_PUBLIC_MQTT_HOST": "mqtt.example.org", "SAFEWALK_PUBLIC_MQTT_TLS": "false",
                "SAFEWALK_RATE_SIGNUP_PER_ADDRESS": "2/60",
            ]))
        #expect(settings.port == 9443 && settings.host == "127.0.0.1" && settings.tls == nil)
        #expect(settings.trustedProxies == ["10.0.0.2", "10.0.0.3"])
        #expect(settings.publicBroker == PublicBroker(host: "mqtt.example.org", port: 8883, tls: false))
        #expect(settings.limits.rules[.signUpPerAddress] == RateRule(burst: 2, per: .seconds(60)))
        #expect(settings.limits.rules[.signInPerAccount] == RateRule(burst: 10, per: .seconds(300)))
        #expect(settings.passwordRounds == 210_000)
        for bad in [
            ["SAFEWALK_TLS_CERT": "/c.pem"], ["SAFEWALK_RATE_SIGNIN_PER_ACCOUNT": "10"],
            ["SAFEWALK_PASSWORD_ROUNDS": "1000"], ["SAFEWALK_HTTP_MAX_BODY": "10"],
        ] {
            #expect(throws: ConfigurationError.self, "\(bad)") { try WebSettings(environment: .init(bad)) }
        }
    }
}
