import ServiceLifecycle

/// Carries on every erasure that did not finish while its request waited, at start-up (after a
/// restart) and then every `settings.eraseRetry`, until each service has reported.
public struct ErasureResumer: Service {
    let accounts: Accounts

    public init(accounts: Accounts) {
        self.accounts = accounts
    }

    public func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            await resumeAll()
            do {
                try await cancelWhenGracefulShutdown {
                    try await accounts.clock.sleep(for: accounts.settings.eraseRetry)
                }
            } catch {
                return
            }
        }
    }

    /// One pass over every unfinished erasure (also called by tests).
    public func resumeAll() async {
        let erasures: [Erasure]
        do {
            erasures = try await accounts.database.erasures()
        } catch {
            accounts.logger.error("cannot read the erasures", metadata: ["error": "\(error)"])
            return
        }
        for erasure in erasures {
            do {
                _ = try await accounts.advance(erasure, answering: false)
            } catch {
                accounts.logger.error(
                    "erasure step failed", metadata: ["walker": "\(erasure.user)", "error": "\(error)"])
            }
        }
    }
}
