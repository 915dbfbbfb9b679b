import Foundation
import ServiceLifecycle

/// Sliding sessions: any use of the app pushes a session's expiry out to a full lifetime from
/// now, at most once a minute (a write per request would be waste). Pure.
public enum SessionSlide {
    /// Slides happen only when they move the expiry by more than this.
    public static let step: TimeInterval = 60

    /// The new expiry, or nil when the current one is recent enough.
    public static func next(expiresAt: Date, now: Date, lifetime: TimeInterval) -> Date? {
        let wanted = now.addingTimeInterval(lifetime)
        return wanted.timeIntervalSince(expiresAt) > step ? wanted : nil
    }
}

/// Ends expired sessions and revokes their broker logins, every `interval` on the accounts'
/// clock (sign-in also drops expired rows, and revokes their logins, on its way).
public struct SessionSweeper: Service {
    let accounts: Accounts
    let interval: Duration

    public init(accounts: Accounts, interval: Duration = .seconds(60)) {
        self.accounts = accounts
        self.interval = interval
    }

    /// Ends at graceful shutdown: the sleep on the accounts' clock would otherwise keep web
    /// from exiting after SIGTERM.
    public func run() async {
        await cancelWhenGracefulShutdown { await sweepUntilCancelled() }
    }

    private func sweepUntilCancelled() async {
        while !Task.isCancelled {
            do {
                try await accounts.clock.sleep(for: interval)
            } catch {
                return
            }
            await sweep()
        }
    }

    /// One pass; returns how many sessions ended.
    @discardableResult
    public func sweep() async -> Int {
        do {
            let expired = try await accounts.database.deleteExpiredSessions(now: accounts.now())
            await accounts.revoke(expired)
            return expired.count
        } catch {
            accounts.logger.error("session sweep failed", metadata: ["error": "\(error)"])
            return 0
        }
    }
}
