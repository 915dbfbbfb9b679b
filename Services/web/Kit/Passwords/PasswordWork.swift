import NIOPosix
import Synchronization

/// Runs the password hasher on NIO's blocking thread pool (one thread per core), never on the
/// cooperative pool, where a hash of a fifth of a second would stall every other request. At most
/// ``limit`` hashes are queued or running: beyond that a request is refused at once
/// (``APIError/busy``) rather than queued behind minutes of work, which is what a flood of
/// sign-ins from many addresses would otherwise build up.
public final class PasswordWork: Sendable {
    public let hasher: PasswordHasher
    public let limit: Int
    private let pool: NIOThreadPool
    private let inFlight = Mutex(0)
    /// Verified against when the account does not exist, so a wrong username takes as long to
    /// refuse as a wrong password (the time taken does not tell which names have accounts).
    private let standIn: PasswordHash

    public init(hasher: PasswordHasher, limit: Int = 32, pool: NIOThreadPool = .singleton) {
        self.hasher = hasher
        self.limit = max(1, limit)
        self.pool = pool
        standIn = hasher.hash("stand-in for an account that does not exist")
    }

    public func hash(_ password: String) async throws -> PasswordHash {
        try await run { [hasher] in hasher.hash(password) }
    }

    /// Whether `password` matches; `stored` nil (no such account) costs the same and is false.
    public func verify(_ password: String, against stored: PasswordHash?) async throws -> Bool {
        try await run { [hasher, standIn] in
            let matches = hasher.verify(password, against: stored ?? standIn)
            return stored != nil && matches
        }
    }

    private func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        let admitted = inFlight.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard admitted else { throw APIError.busy }
        defer { inFlight.withLock { $0 -= 1 } }
        return try await pool.runIfActive(work)
    }
}
