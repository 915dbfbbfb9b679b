import Foundation
import SafeWalkCore

/// A new session: the cookie's token (given to the client once, stored only as a digest) and the
/// CSRF token the client sends back in `X-CSRF-Token`.
public struct NewSession: Hashable, Sendable {
    public var username: WalkerID
    public var token: String
    public var csrfToken: String
    public var expiresAt: Date
}

extension Accounts {
    /// `POST /v1/sessions`. A wrong password, an unknown name and an account not (or no longer)
    /// active all answer the same and take the same time: a hash is verified in every case.
    public func signIn(username: String, password: String, client: String) async throws -> NewSession {
        let key = UsernameRule.lookupKey(username)
        var attempts: [(RateLimits.Scope, String)] = [(.signInPerAddress, client)]
        if let key { attempts.append((.signInPerAccount, key)) }
        try admit(attempts)
        var account: Account?
        if let key { account = try await database.account(key: key) }
        if account?.state != .active { account = nil }
        let matches = try await passwords.verify(password, against: account?.passwordHash)
        guard matches, let account else { throw APIError.badCredentials }
        if passwords.hasher.needsRehash(account.passwordHash) {
            try await database.setPasswordHash(try await passwords.hash(password), key: account.usernameKey)
        }
        let session = NewSession(
            username: account.username, token: Secrets.token(), csrfToken: Secrets.token(),
            expiresAt: now().addingTimeInterval(settings.sessionLifetime))
        let tokenHash = Secrets.digest(session.token)
        let login = SessionLogin(user: account.username, tokenHash: tokenHash)
        let dropped = try await database.insertSession(
            tokenHash: tokenHash, key: account.usernameKey, csrfToken: session.csrfToken,
            now: now(), expiresAt: session.expiresAt, keepAtMost: settings.sessionsPerAccount, login: login.session)
        // The session's broker login; if broker-admin does not answer, the app makes it when it
        // is first used (``AppBridge``), so signing in does not depend on it.
        _ = await createSessionLogin(login, token: session.token)
        if !dropped.isEmpty { Task { await revoke(dropped) } }
        return session
    }

    /// `DELETE /v1/sessions`: the session and its broker login end.
    public func signOut(tokenHash: String) async throws {
        if let login = try await database.deleteSession(tokenHash: tokenHash) { await revoke([login]) }
    }
}
