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
    /// active all answer the same and take the same time: a hash is verified in every case. A
    /// desk account is refused (`useDesk`) only after its password matched, so the answer says
    /// nothing about a name to someone without its password.
    public func signIn(username: String, password: String, client: String) async throws -> NewSession {
        let account = try await verify(username: username, password: password, client: client)
        guard !account.role.isDesk else { throw APIError.useDesk }
        let (session, tokenHash, dropped) = try await startSession(account, login: true)
        // The session's broker login; if broker-admin does not answer, the app makes it when it
        // is first used (``AppBridge``), so signing in does not depend on it.
        _ = await createSessionLogin(SessionLogin(user: account.username, tokenHash: tokenHash), token: session.token)
        if !dropped.isEmpty { Task { await revoke(dropped) } }
        return session
    }

    /// `POST /v1/desk/sessions`: an operator signs in at `/ops`. The same checks; a walker's
    /// account is refused (`notOperator`), and the session gets no broker login: the desk acts
    /// only through web.
    public func signInAtDesk(username: String, password: String, client: String) async throws -> (
        NewSession, Account.Role
    ) {
        let account = try await verify(username: username, password: password, client: client)
        guard account.role.isDesk else { throw APIError.notOperator }
        let (session, _, dropped) = try await startSession(account, login: false)
        if !dropped.isEmpty { Task { await revoke(dropped) } }
        return (session, account.role)
    }

    /// The active account whose password this is, or `badCredentials`.
    private func verify(username: String, password: String, client: String) async throws -> Account {
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
        return account
    }

    private func startSession(_ account: Account, login: Bool) async throws -> (
        NewSession, tokenHash: String, dropped: [SessionLogin]
    ) {
        let session = NewSession(
            username: account.username, token: Secrets.token(), csrfToken: Secrets.token(),
            expiresAt: now().addingTimeInterval(settings.sessionLifetime))
        let tokenHash = Secrets.digest(session.token)
        let dropped = try await database.insertSession(
            tokenHash: tokenHash, key: account.usernameKey, csrfToken: session.csrfToken,
            now: now(), expiresAt: session.expiresAt, keepAtMost: settings.sessionsPerAccount,
            login: login ? SessionLogin(user: account.username, tokenHash: tokenHash).session : nil)
        return (session, tokenHash, dropped)
    }

    /// `DELETE /v1/sessions`: the session and its broker login end.
    public func signOut(tokenHash: String) async throws {
        if let login = try await database.deleteSession(tokenHash: tokenHash) { await revoke([login]) }
    }
}
