import Hummingbird

/// Every route of the HTTP API, in one table: the router registers exactly these, and a test
/// checks that docs/openapi.json documents exactly these (paths in OpenAPI's `{user}` form).
public enum WebRoute: String, CaseIterable, Hashable, Sendable {
    case signUp, signIn, signOut, changePassword, ownTracks, deleteAccount

    public var method: HTTPRequest.Method {
        switch self {
        case .signUp, .signIn: .post
        case .signOut, .deleteAccount: .delete
        case .changePassword: .put
        case .ownTracks: .get
        }
    }

    /// As OpenAPI writes it.
    public var path: String {
        switch self {
        case .signUp: "/v1/accounts"
        case .signIn, .signOut: "/v1/sessions"
        case .changePassword: "/v1/accounts/{user}/password"
        case .ownTracks: "/v1/accounts/{user}/owntracks"
        case .deleteAccount: "/v1/accounts/{user}"
        }
    }

    /// As Hummingbird's router writes it (`:user`).
    var routerPath: RouterPath {
        RouterPath(path.replacingOccurrences(of: "{user}", with: ":user"))
    }

    /// Routes that act for a signed-in account: the session cookie and `X-CSRF-Token` are
    /// required, and `{user}` must be the session's account.
    public var needsSession: Bool {
        switch self {
        case .signUp, .signIn: false
        case .signOut, .changePassword, .ownTracks, .deleteAccount: true
        }
    }
}
