import Hummingbird
import SafeWalkCore

/// What each ``WebRoute`` does: read the request, call ``Accounts``, write the answer.
struct WebHandlers: Sendable {
    let accounts: Accounts
    /// The live pages and the gateway's callbacks; nil serves them as 404 (tests of accounts).
    let live: LivePages?
    let files: StaticFiles
    /// Web Push (Kit/Push); nil serves its routes as 404.
    var push: WebPush? = nil
    /// The walker's app's broker side (Kit/App); nil serves its events and publish as 503.
    var app: AppBridge? = nil
    /// The monitoring desk (Kit/Desk); nil answers its routes 503.
    var desk: Desk? = nil
    var settings: WebSettings { accounts.settings }
    var sessions: SessionGuard { SessionGuard(accounts: accounts) }

    struct AccountAnswer: Codable { var username: WalkerID; var email: String? }
    struct SessionAnswer: Codable { var username: WalkerID; var csrfToken: String; var expiresAt: Int }
    struct DeletionAnswer: Codable { var username: WalkerID; var state: String }

    func respond(to route: WebRoute, _ request: Request, _ context: WebRequestContext) async throws -> Response {
        switch route {
        case .signUp:
            let fields = try await JSONBody.read(request, limit: settings.bodyLimit)
            let account = try await accounts.signUp(
                username: try fields.string(.username), email: try fields.string(.email),
                password: try fields.string(.password), client: client(request, context))
            return try JSONResponse.make(
                AccountAnswer(username: account.username, email: account.email), status: .created)
        case .signIn:
            let fields = try await JSONBody.read(request, limit: settings.bodyLimit)
            let session = try await accounts.signIn(
                username: try fields.string(.username), password: try fields.string(.password),
                client: client(request, context))
            var response = try JSONResponse.make(
                SessionAnswer(
                    username: session.username, csrfToken: session.csrfToken,
                    expiresAt: Int(session.expiresAt.timeIntervalSince1970)))
            response.setCookie(SessionCookie.issue(session.token, maxAge: Int(settings.sessionLifetime)))
            return response
        case .signOut:
            // Walkers and the desk's operators alike.
            let (_, tokenHash) = try await sessions.require(request, user: nil, desk: nil)
            try await accounts.signOut(tokenHash: tokenHash)
            var response = JSONResponse.empty()
            response.setCookie(SessionCookie.expired())
            return response
        case .changePassword:
            let (session, tokenHash) = try await sessions.require(request, user: context.parameters.get("user"))
            let fields = try await JSONBody.read(request, limit: settings.bodyLimit)
            try await accounts.changePassword(
                session: session, tokenHash: tokenHash, old: try fields.string(.oldPassword),
                new: try fields.string(.newPassword))
            return try JSONResponse.make(AccountAnswer(username: session.username))
        case .ownTracks:
            let (session, _) = try await sessions.require(request, user: context.parameters.get("user"))
            return try JSONResponse.make(try await accounts.ownTracks(session: session))
        case .deleteAccount:
            let (session, _) = try await sessions.require(request, user: context.parameters.get("user"))
            var response: Response
            switch try await accounts.delete(session: session) {
            case .finished:
                response = try JSONResponse.make(DeletionAnswer(username: session.username, state: "erased"))
            case .continuing:
                response = try JSONResponse.make(
                    DeletionAnswer(username: session.username, state: "erasing"), status: .accepted)
            case .cancelled(let error): throw error
            }
            response.setCookie(SessionCookie.expired())
            return response
        case .livePage: return try await livePage(request, context)
        case .liveEvents: return try await liveEvents(request, context)
        case .acknowledge: return try await acknowledge(request, context)
        case .smsInbound: return try await smsInbound(request)
        case .smsStatus: return try await smsStatus(request)
        case .pushKey: return try pushKey()
        case .pushSubscribe: return try await pushSubscribe(request)
        case .pushUnsubscribe: return try await pushUnsubscribe(request)
        case .currentSession: return try await currentSession(request)
        case .appEvents: return try await appEvents(request)
        case .appPublish: return try await appPublish(request)
        case .deskSignIn, .deskMe, .deskEvents, .deskIncident, .deskPositions, .deskWalkerPosition, .deskAcknowledge,
            .deskNote, .deskHandOver, .deskClose, .deskOperators, .deskAddOperator, .appDeskViews:
            return try await respondDesk(to: route, request, context)
        }
    }

    func client(_ request: Request, _ context: WebRequestContext) -> String {
        let forwarded = request.headers.filter { $0.name.canonicalName == "x-forwarded-for" }.map(\.value)
        return ClientAddress.resolve(
            peer: context.peer, forwardedFor: forwarded, trustedProxies: settings.trustedProxies)
    }
}
