import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SafeWalkCore
import SafeWalkWebKit
import TestSupport
import Testing

@Suite(.holdsResources) struct DeletionHTTPTests {
    static let everyService: Set<ServiceName> = Set([ErasingServices.first] + ErasingServices.rest)

    @Test func deletingErasesEverywhereThenForgetsTheAccount() async throws {
        let web = try WebFixture()
        try await web.live { client in
            try await client.signUp("alice")
            let session = try await client.session("alice")
            let response = try await client.send(.delete, "/v1/accounts/alice", session: session)
            #expect(response.status == .ok && response.json["state"] as? String == "erased")
            #expect(response.headers[.setCookie]?.contains("Max-Age=0") == true)
            // Disabled first, then the watchdog alone, then the other five.
            #expect(web.broker.operations == [.createWalker, .disable])
            #expect(web.services.asked.first == .watchdog)
            #expect(Set(web.services.asked) == Self.everyService && web.services.asked.count == 6)
            #expect(web.services.erased("alice") == Self.everyService)
            #expect(try await client.signIn("alice").status == .unauthorized)
            #expect(try await web.accounts.database.erasures().isEmpty)
            // The name is free again.
            web.broker.state.withLock { $0.logins["alice"] = nil }
            #expect(try await client.signUp("alice").status == .created)
        }
    }

    @Test func anOpenIncidentRefusesTheDeletionAndChangesNothing() async throws {
        let web = try WebFixture()
        web.services.state.withLock { $0.refusals[.watchdog] = .openIncident }
        try await web.live { client in
            try await client.signUp("alice")
            let session = try await client.session("alice")
            let response = try await client.send(.delete, "/v1/accounts/alice", session: session)
            #expect(response.status == .conflict && response.refusal?.reason == "openIncident")
            #expect(web.broker.operations == [.createWalker, .disable, .enable])
            #expect(web.services.asked == [.watchdog])
            #expect(try await client.signIn("alice").status == .ok)
            #expect(try await client.send(.delete, "/v1/sessions", session: session).status == .noContent)
        }
    }

    @Test func aSilentServiceTurnsTheAnswerInto202AndTheJobCarriesOn() async throws {
        var settings = WebSettings()
        settings.eraseWait = .seconds(1)
        let web = try WebFixture(settings: settings)
        web.services.state.withLock { $0.silent = [.notifier] }
        try await web.live { client in
            try await client.signUp("alice")
            let session = try await client.session("alice")
            let response = try await client.send(.delete, "/v1/accounts/alice", session: session)
            #expect(response.status == .accepted && response.json["state"] as? String == "erasing")
            // The account cannot be used meanwhile, and its name stays taken.
            #expect(try await client.signIn("alice").status == .unauthorized)
            #expect(try await client.signUp("ALICE", email: "other@example.org").status == .conflict)
            let pending = try await web.accounts.database.erasures()
            #expect(pending.map(\.remaining) == [[.notifier]] && pending.first?.phase == .erasing)
            // The notifier is back; the resumer's next pass finishes the job.
            web.services.state.withLock { $0.silent = [] }
            await ErasureResumer(accounts: web.accounts).resumeAll()
            #expect(try await web.accounts.database.erasures().isEmpty)
            #expect(try await web.accounts.database.accountCount() == 0)
            #expect(web.services.erased("alice") == Self.everyService)
        }
    }

    @Test func whenTheWatchdogDoesNotAnswerNothingIsErased() async throws {
        var settings = WebSettings()
        settings.commandWait = .seconds(1)
        let web = try WebFixture(settings: settings)
        web.services.state.withLock { $0.silent = [.watchdog] }
        try await web.live { client in
            try await client.signUp("alice")
            let session = try await client.session("alice")
            let response = try await client.send(.delete, "/v1/accounts/alice", session: session)
            #expect(response.status == .serviceUnavailable)
            #expect(web.services.asked == [.watchdog] && web.broker.operations.last == .enable)
            #expect(try await web.accounts.database.erasures().isEmpty)
            #expect(try await client.signIn("alice").status == .ok)
        }
    }
}
