import Foundation
import SafeWalkCore
import Synchronization

extension Accounts {
    /// Asks broker-admin for the session's login (`createSession`); false when it did not answer
    /// yes (logged by ``command(_:_:password:session:)``).
    public func createSessionLogin(_ login: SessionLogin, token: String) async -> Bool {
        let result = await command(
            .createSession, login.user, password: SessionLogin.password(token: token), session: login.session)
        return result?.ok == true
    }

    /// Deletes the logins of sessions that ended (`deleteSession`, all at once) and tells the
    /// app's bridge to close their clients. A deletion broker-admin does not confirm is logged:
    /// its password needs the ended session's cookie, and an erasure deletes it in any case.
    public func revoke(_ logins: [SessionLogin]) async {
        guard !logins.isEmpty else { return }
        await revocations.tell(logins)
        await withTaskGroup(of: Void.self) { group in
            for login in logins {
                group.addTask {
                    let result = await command(.deleteSession, login.user, session: login.session)
                    if result?.ok != true {
                        logger.warning("session login not revoked", metadata: ["walker": "\(login.user)"])
                    }
                }
            }
        }
    }
}

/// Whoever must know that session logins were revoked (the app's bridge closes their clients).
public final class SessionRevocations: Sendable {
    private let observers = Mutex<[@Sendable ([SessionLogin]) async -> Void]>([])

    public init() {}

    public func observe(_ observer: @escaping @Sendable ([SessionLogin]) async -> Void) {
        observers.withLock { $0.append(observer) }
    }

    func tell(_ logins: [SessionLogin]) async {
        for observer in observers.withLock({ $0 }) { await observer(logins) }
    }
}
