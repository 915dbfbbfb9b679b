import Foundation
import Logging
import SafeWalkCore
import Synchronization

/// The accounts API's decisions and steps, without HTTP: the routes read requests into calls
/// here and write what comes back. Everything it touches is injected (the store, the hasher's
/// threads, broker-admin, the erasing services, the member directory, the rate limits and both
/// clocks), so tests run it against in-memory collaborators and a manual clock.
public struct Accounts: Sendable {
    public let database: WebDatabase
    public let passwords: PasswordWork
    public let keeper: any CredentialKeeper
    public let eraser: any Eraser
    /// `_members/{w}`: who has an account, for the circle owner.
    public let members: any MemberDirectory
    public let gate: any RateGating
    public let settings: WebSettings
    /// Wall-clock time, for what is stored (creation, session expiry).
    public let now: @Sendable () -> Date
    /// Bounds every wait on a collaborator (``Deadline``).
    public let clock: any Clock<Duration>
    public let logger: Logger
    /// The erasures a pass is working on now.
    let erasing = Claims()
    /// Told of every session login revoked, so the app's bridge closes its client (Kit/App).
    public let revocations = SessionRevocations()

    public init(
        database: WebDatabase, passwords: PasswordWork, keeper: any CredentialKeeper, eraser: any Eraser,
        members: any MemberDirectory, gate: any RateGating, settings: WebSettings,
        now: @escaping @Sendable () -> Date = Date.init,
        clock: any Clock<Duration> = ContinuousClock(), logger: Logger
    ) {
        self.database = database
        self.passwords = passwords
        self.keeper = keeper
        self.eraser = eraser
        self.members = members
        self.gate = gate
        self.settings = settings
        self.now = now
        self.clock = clock
        self.logger = logger
    }

    /// Ids claimed by one task at a time, in this process (the only one that opens web.sqlite).
    final class Claims: Sendable {
        private let claimed = Mutex<Set<String>>([])

        func claim(_ id: String) -> Bool { claimed.withLock { $0.insert(id).inserted } }
        func release(_ id: String) { _ = claimed.withLock { $0.remove(id) } }
    }

    /// Spends one attempt of each key, or throws 429 with the wait.
    func admit(_ attempts: [(RateLimits.Scope, String)]) throws(APIError) {
        guard let wait = gate.admit(attempts) else { return }
        throw .rateLimited(retryAfterSeconds: max(1, Int(wait.seconds.rounded(.up))))
    }

    /// Runs one command on broker-admin within `settings.commandWait`. Nil when it gave no usable
    /// answer (timed out, failed, or answered for another id), logged here.
    func command(_ op: AccountCommand.Operation, _ user: WalkerID, password: String? = nil, session: String? = nil)
        async -> AccountCommandResult?
    {
        let command = AccountCommand(
            id: UUID().uuidString.lowercased(), op: op, user: user, password: password, session: session)
        do {
            let result = try await Deadline.run(settings.commandWait, clock: clock) { [keeper] in
                try await keeper.run(command)
            }
            guard result.id == command.id else {
                logger.error("broker-admin answered another command", metadata: ["op": "\(op)"])
                return nil
            }
            if !result.ok {
                logger.warning(
                    "broker-admin refused a command",
                    metadata: ["op": "\(op)", "walker": "\(user)", "error": "\(result.error?.rawValue ?? "none")"])
            }
            return result
        } catch {
            logger.error(
                "broker-admin did not answer", metadata: ["op": "\(op)", "walker": "\(user)", "error": "\(error)"])
            return nil
        }
    }
}
