import Hummingbird

/// Every route of the HTTP API, in one table: the router registers exactly these, and a test
/// checks that docs/openapi.json documents exactly these (paths in OpenAPI's `{user}` form).
public enum WebRoute: String, CaseIterable, Hashable, Sendable {
    case signUp, signIn, signOut, changePassword, ownTracks, deleteAccount
    /// A contact's live page, its event stream and its "I'm on it" button.
    case livePage, liveEvents, acknowledge
    /// The SMS gateway's webhooks (Twilio's inbound message and status callback).
    case smsInbound, smsStatus
    /// Web Push for the walker's app: the VAPID public key, and the browser's subscription.
    case pushKey, pushSubscribe, pushUnsubscribe
    /// The walker's app: the signed-in session (its CSRF token after a reload), the event stream
    /// of the walker's own topics, and publishing the walker's inputs as the session's login.
    case currentSession, appEvents, appPublish
    /// The monitoring desk (`/ops`): an operator's session, the board's events, an incident, its
    /// positions, a walker's position, the desk's actions, operators; and the walker's own audit.
    case deskSignIn, deskMe, deskEvents, deskIncident, deskPositions, deskWalkerPosition
    case deskAcknowledge, deskNote, deskHandOver, deskClose, deskOperators, deskAddOperator, appDeskViews

    public var method: HTTPRequest.Method {
        switch self {
        case .signUp, .signIn, .acknowledge, .smsInbound, .smsStatus: .post
        case .signOut, .deleteAccount: .delete
        case .changePassword: .put
        case .ownTracks, .livePage, .liveEvents: .get
        case .pushKey: .get
        case .pushSubscribe: .put
        case .pushUnsubscribe: .delete
        case .currentSession, .appEvents: .get
        case .appPublish: .post
        case .deskMe, .deskEvents, .deskIncident, .deskPositions, .deskWalkerPosition, .deskOperators, .appDeskViews:
            .get
        case .deskSignIn, .deskAcknowledge, .deskNote, .deskHandOver, .deskClose, .deskAddOperator: .post
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
        case .livePage: "/i/{token}"
        case .liveEvents: "/i/{token}/events"
        case .acknowledge: "/i/{token}/ack"
        case .smsInbound: "/v1/gateway/sms/inbound"
        case .smsStatus: "/v1/gateway/sms/status"
        case .pushKey, .pushSubscribe, .pushUnsubscribe: "/v1/app/push"
        case .currentSession: "/v1/sessions/current"
        case .appEvents: "/v1/app/events"
        case .appPublish: "/v1/app/publish"
        case .deskSignIn: "/v1/desk/sessions"
        case .deskMe: "/v1/desk/me"
        case .deskEvents: "/v1/desk/events"
        case .deskIncident: "/v1/desk/incidents/{incident}"
        case .deskPositions: "/v1/desk/incidents/{incident}/positions"
        case .deskWalkerPosition: "/v1/desk/walkers/{user}/position"
        case .deskAcknowledge: "/v1/desk/incidents/{incident}/ack"
        case .deskNote: "/v1/desk/incidents/{incident}/notes"
        case .deskHandOver: "/v1/desk/incidents/{incident}/handover"
        case .deskClose: "/v1/desk/incidents/{incident}/close"
        case .deskOperators, .deskAddOperator: "/v1/desk/operators"
        case .appDeskViews: "/v1/app/desk-views"
        }
    }

    /// As Hummingbird's router writes it (`:user`, `:token`).
    var routerPath: RouterPath {
        RouterPath(
            path.replacingOccurrences(of: "{user}", with: ":user").replacingOccurrences(of: "{token}", with: ":token")
                .replacingOccurrences(of: "{incident}", with: ":incident"))
    }

    /// Routes that act for a signed-in account: the session cookie and `X-CSRF-Token` are
    /// required, and `{user}` must be the session's account.
    public var needsSession: Bool {
        switch self {
        case .signUp, .signIn, .livePage, .liveEvents, .acknowledge, .smsInbound, .smsStatus: false
        case .signOut, .changePassword, .ownTracks, .deleteAccount: true
        case .pushKey: false
        case .pushSubscribe, .pushUnsubscribe: true
        // The cookie alone: reading does not change anything, and no other site can read the answer.
        case .currentSession, .appEvents: false
        case .appPublish: true
        case .deskSignIn: false
        case .deskMe, .deskEvents, .deskIncident, .deskPositions, .deskWalkerPosition, .deskOperators, .appDeskViews:
            false
        case .deskAcknowledge, .deskNote, .deskHandOver, .deskClose, .deskAddOperator: true
        }
    }
}
