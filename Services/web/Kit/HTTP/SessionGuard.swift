import Hummingbird

/// The checks of every route that acts for a signed-in account, in order: a live session
/// (401 `unauthenticated`), its CSRF token in `X-CSRF-Token` (403 `csrf`: another site can make a
/// browser send the cookie, but cannot read the token), and, where the path names an account,
/// that it is the session's (403 `forbidden`). A route is either the walker's or the desk's: a
/// session of the other kind is refused (403 `useDesk` / `notOperator`).
struct SessionGuard: Sendable {
    let accounts: Accounts

    static let csrfHeader = "x-csrf-token"

    func require(_ request: Request, user: String?, desk: Bool? = false) async throws -> (
        session: Session, tokenHash: String
    ) {
        guard let token = SessionCookie.token(in: request) else { throw APIError.unauthenticated }
        let tokenHash = Secrets.digest(token)
        guard let session = try await accounts.database.session(tokenHash: tokenHash, now: accounts.now()) else {
            throw APIError.unauthenticated
        }
        let sent = request.headers.first { $0.name.canonicalName == Self.csrfHeader }?.value
        guard let sent, Secrets.equal(sent, session.csrfToken) else { throw APIError.csrf }
        if let desk { try Self.check(session.role, desk: desk) }
        if let user, UsernameRule.lookupKey(user) != session.usernameKey { throw APIError.forbidden }
        return (session, tokenHash)
    }

    /// A walker's route for walkers, a desk route for operators and admins.
    static func check(_ role: Account.Role, desk: Bool) throws(APIError) {
        if desk, !role.isDesk { throw .notOperator }
        if !desk, role.isDesk { throw .useDesk }
    }
}
