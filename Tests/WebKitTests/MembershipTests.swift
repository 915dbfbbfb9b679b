import Foundation
import SafeWalkCore
import SafeWalkWebKit
import TestSupport
import Testing

/// The member directory's rules, without a broker: which accounts `_members/{w}` shows, and what
/// a sign-up does when the directory is away.
@Suite(.holdsResources) struct MembershipTests {
    static let alice = WalkerID(validating: "alice")!
    static let bob = WalkerID(validating: "bob")!
    static let created = Date(timeIntervalSince1970: 1_760_000_000.75)

    @Test func onlyAnActiveAccountIsPublishedAndItsRecordIsTheSameEveryTime() {
        let active = Membership(user: Self.alice, state: .active, createdAt: Self.created)
        #expect(active.intent == .publish(Member(user: Self.alice, since: 1_760_000_000)))
        #expect(active.intent == active.intent)
        for state in [Account.State.erasing, .pending] {
            #expect(Membership(user: Self.alice, state: state, createdAt: Self.created).intent == .clear(Self.alice))
        }
    }

    @Test func aPassRedoesWhatChangedWhileItRanAsItIsNow() {
        let carol = WalkerID(validating: "carol")!
        let dave = WalkerID(validating: "dave")!
        let record = { (user: WalkerID) in Membership.member(user, createdAt: Self.created) }
        let done: [WalkerID: Membership.Intent] = [
            Self.alice: .publish(record(Self.alice)), Self.bob: .publish(record(Self.bob)),
            carol: .clear(carol), dave: .clear(dave),
        ]
        let now = [
            Membership(user: Self.alice, state: .active, createdAt: Self.created),
            // bob's erasure began, carol's was cancelled, dave's sign-up was forgotten: gone.
            Membership(user: Self.bob, state: .erasing, createdAt: Self.created),
            Membership(user: carol, state: .active, createdAt: Self.created),
        ]
        #expect(Membership.corrections(done: done, now: now) == [.clear(Self.bob), .publish(record(carol))])
        #expect(
            Membership.corrections(done: [Self.alice: .publish(record(Self.alice))], now: []) == [.clear(Self.alice)])
    }

    @Test func aSignUpSucceedsWhenTheDirectoryIsAwayAndTheNextStartPublishesIt() async throws {
        let members = RecordingMembers()
        members.state.withLock { $0.down = true }
        let web = try WebFixture(members: members)
        try await web.live { client in
            let response = try await client.signUp("alice")
            #expect(response.status == .created)
            #expect(try await client.signIn("alice").status == .ok)
            #expect(members.log.isEmpty)
            members.state.withLock { $0.down = false }
            let pass = await MemberRepublisher(accounts: web.accounts).republishAll()
            #expect(pass == MemberRepublisher.Pass(published: 1))
        }
        #expect(members.member("alice")?.user == Self.alice)
    }

    @Test func everyPassOfAnErasureClearsAgainAndTheRecordNeverComesBackOnceErased() async throws {
        var settings = WebSettings()
        settings.eraseWait = .seconds(1)
        let members = RecordingMembers()
        let web = try WebFixture(settings: settings, members: members)
        web.services.state.withLock { $0.silent = [.notifier] }
        try await web.live { client in
            try await client.signUp("alice")
            let session = try await client.session("alice")
            #expect(try await client.send(.delete, "/v1/accounts/alice", session: session).status == .accepted)
            web.services.state.withLock { $0.silent = [] }
            await ErasureResumer(accounts: web.accounts).resumeAll()
            #expect(try await web.accounts.database.accountCount() == 0)
            // A start after the erasure finished publishes nothing for alice.
            #expect(await MemberRepublisher(accounts: web.accounts).republishAll() == MemberRepublisher.Pass())
        }
        #expect(members.log == ["publish alice", "clear alice", "clear alice"])
        #expect(members.member("alice") == nil)
    }
}
