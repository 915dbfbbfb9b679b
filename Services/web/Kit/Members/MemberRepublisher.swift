import Foundation
import SafeWalkCore
import ServiceLifecycle

/// At web's start, makes `_members/+` match the accounts: every active account's record is
/// published again and every other account's cleared. A record a sign-up could not publish (web
/// stopped before the broker had it) or a clear an erasure could not make is thereby healed by the
/// next start.
///
/// Cost: one small retained message (about 50 bytes) per account, which the broker already
/// holds; at most `concurrency` in flight. Each publication waits for the broker (no deadline:
/// the MQTT client keeps a publication made while it is disconnected and sends it on reconnect),
/// so the pass is lost only with the process, and the next start makes it again.
public struct MemberRepublisher: Service {
    let accounts: Accounts
    /// Sign-ups a stop cut short, whose rows are gone (``WebDatabase/forgetPending()``): a sign-up
    /// announces its record just before the account turns active, so theirs may stand.
    let forgotten: [WalkerID]
    let concurrency: Int

    public init(accounts: Accounts, forgotten: [WalkerID] = [], concurrency: Int = 16) {
        self.accounts = accounts
        self.forgotten = forgotten
        self.concurrency = max(1, concurrency)
    }

    /// What one pass did.
    public struct Pass: Hashable, Sendable {
        public var published = 0
        public var cleared = 0
        public var failed = 0

        public init(published: Int = 0, cleared: Int = 0, failed: Int = 0) {
            self.published = published
            self.cleared = cleared
            self.failed = failed
        }
    }

    public func run() async throws {
        // A stop during a long pass ends it: the next start makes a whole pass again.
        _ = await cancelWhenGracefulShutdown { await republishAll() }
        // A part that returns would stop the whole service: stay until the stop.
        try? await gracefulShutdown()
    }

    /// One pass over every account (also called by tests).
    public func republishAll() async -> Pass {
        let started = ContinuousClock.now
        let memberships: [Membership]
        do {
            memberships = try await accounts.database.memberships()
        } catch {
            accounts.logger.error("cannot read the accounts for the member directory", metadata: ["error": "\(error)"])
            return Pass()
        }
        var pass = Pass()
        let done = await apply(forgotten.map { .clear($0) } + memberships.map(\.intent), into: &pass)
        // What changed while the pass ran is made right once more. (What changes during this
        // second, short step is not: the window is one read and one publication wide.)
        if let now = try? await accounts.database.memberships() {
            _ = await apply(Membership.corrections(done: done, now: now), into: &pass)
        }
        accounts.logger.info(
            "member directory republished",
            metadata: [
                "published": "\(pass.published)", "cleared": "\(pass.cleared)", "failed": "\(pass.failed)",
                "seconds": "\((ContinuousClock.now - started).seconds)",
            ])
        return pass
    }

    /// Carries out `intents`, at most `concurrency` at a time; returns those the broker took.
    private func apply(_ intents: [Membership.Intent], into pass: inout Pass) async -> [WalkerID: Membership.Intent] {
        await withTaskGroup(of: (Membership.Intent, Bool).self) { group in
            var pending = intents.makeIterator()
            func start(_ intent: Membership.Intent) {
                group.addTask { [members = accounts.members] in
                    do {
                        switch intent {
                        case .publish(let member): try await members.publish(member)
                        case .clear(let user): try await members.clear(user)
                        }
                        return (intent, true)
                    } catch {
                        return (intent, false)
                    }
                }
            }
            for _ in 0..<concurrency {
                guard let intent = pending.next() else { break }
                start(intent)
            }
            var done: [WalkerID: Membership.Intent] = [:]
            for await (intent, ok) in group {
                switch (intent, ok) {
                case (.publish(let member), true):
                    pass.published += 1
                    done[member.user] = intent
                case (.clear(let user), true):
                    pass.cleared += 1
                    done[user] = intent
                case (_, false): pass.failed += 1
                }
                if let next = pending.next() { start(next) }
            }
            return done
        }
    }
}
