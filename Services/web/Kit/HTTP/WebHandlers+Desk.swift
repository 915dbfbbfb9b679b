import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SafeWalkCore
import ServiceLifecycle

/// The monitoring desk's routes (docs/services/web.md, "The monitoring desk"). Every one needs an
/// operator's session; positions leave only through ``DeskPositionRule``, and every look is
/// recorded (``Desk/recordView(_:by:what:)``) before anything is served.
extension WebHandlers {
    struct DeskSessionAnswer: Codable {
        var username: WalkerID
        var role: Account.Role
        var csrfToken: String
        var expiresAt: Int
        var desk: String
    }

    struct AcknowledgedAnswer: Codable { var by: String }
    struct OperatorsAnswer: Codable {
        struct Entry: Codable { var username: WalkerID; var role: Account.Role }
        var operators: [Entry]
    }
    struct PositionAnswer: Codable { var walker: WalkerID; var incident: String; var position: DeskSnapshot.Position? }
    struct ViewsAnswer: Codable {
        struct Entry: Codable {
            var `operator`: String
            var desk: String
            var incident: String
            var at: EpochSeconds
            var what: DeskView.What
            var text: String
        }
        var views: [Entry]
    }

    func respondDesk(to route: WebRoute, _ request: Request, _ context: WebRequestContext) async throws -> Response {
        switch route {
        case .deskSignIn: return try await deskSignIn(request, context)
        case .deskMe:
            let session = try await deskSession(request, csrf: false)
            return try JSONResponse.make(deskAnswer(session))
        case .deskEvents: return try await deskEvents(request)
        case .deskIncident: return try await deskIncident(request, context)
        case .deskPositions: return try await deskPositions(request, context)
        case .deskWalkerPosition: return try await deskWalkerPosition(request, context)
        case .deskAcknowledge:
            let session = try await deskSession(request, csrf: true)
            let by = try await requireDesk().acknowledge(try incidentID(context), by: session.username)
            return try JSONResponse.make(AcknowledgedAnswer(by: by))
        case .deskNote:
            let session = try await deskSession(request, csrf: true)
            let fields = try await JSONBody.read(request, limit: settings.bodyLimit)
            let text = try Self.note(try fields.string(.text), field: .text)
            try await requireDesk().addNote(try incidentID(context), text: text, by: session.username)
            return JSONResponse.empty(status: .created)
        case .deskHandOver:
            let session = try await deskSession(request, csrf: true)
            let fields = try await JSONBody.read(request, limit: settings.bodyLimit)
            try await requireDesk().handOver(try incidentID(context), to: try fields.string(.to), by: session.username)
            return JSONResponse.empty(status: .ok)
        case .deskClose:
            let session = try await deskSession(request, csrf: true)
            let fields = try await JSONBody.read(request, limit: settings.bodyLimit)
            guard let reason = DeskCloseReason(rawValue: try fields.string(.reason)) else {
                throw APIError.field(FieldError(.reason, .invalid))
            }
            let note = try fields.optionalString(.note).map { try Self.note($0, field: .note) }
            try await requireDesk().close(try incidentID(context), reason: reason, note: note, by: session.username)
            return JSONResponse.empty(status: .ok)
        case .deskOperators:
            _ = try await deskSession(request, csrf: false)
            let list = try await accounts.database.operators()
            return try JSONResponse.make(
                OperatorsAnswer(operators: list.map { .init(username: $0.username, role: $0.role) }))
        case .deskAddOperator:
            let session = try await deskSession(request, csrf: true)
            guard session.role == .admin else { throw APIError.notAdmin }
            let fields = try await JSONBody.read(request, limit: settings.bodyLimit)
            let account = try await accounts.addOperator(
                username: try fields.string(.username), email: try fields.string(.email),
                password: try fields.string(.password), role: try fields.flag(.admin) ? .admin : .operator)
            return try JSONResponse.make(
                OperatorsAnswer.Entry(username: account.username, role: account.role), status: .created)
        case .appDeskViews:
            let (session, token, _) = try await appSession(request, csrf: false)
            let views = try await accounts.database.views(ofWalker: session.username)
            let desk = settings.desk.name
            var response = try JSONResponse.make(
                ViewsAnswer(
                    views: views.map {
                        .init(
                            operator: $0.operator, desk: desk, incident: $0.incident, at: $0.at, what: $0.what,
                            text:
                                "\($0.operator) of \(desk) viewed your alert at \(UTCClockText.hoursAndMinutes($0.at))")
                    }))
            renewCookie(&response, token: token, session: session)
            return response
        default: throw APIError.notFound
        }
    }

    func requireDesk() throws(APIError) -> Desk {
        guard let desk else { throw .unavailable }
        return desk
    }

    func deskAnswer(_ session: Session) -> DeskSessionAnswer {
        DeskSessionAnswer(
            username: session.username, role: session.role, csrfToken: session.csrfToken,
            expiresAt: Int(session.expiresAt.timeIntervalSince1970), desk: settings.desk.name)
    }

    func deskSignIn(_ request: Request, _ context: WebRequestContext) async throws -> Response {
        let fields = try await JSONBody.read(request, limit: settings.bodyLimit)
        let (session, role) = try await accounts.signInAtDesk(
            username: try fields.string(.username), password: try fields.string(.password),
            client: client(request, context))
        var response = try JSONResponse.make(
            DeskSessionAnswer(
                username: session.username, role: role, csrfToken: session.csrfToken,
                expiresAt: Int(session.expiresAt.timeIntervalSince1970), desk: settings.desk.name))
        response.setCookie(SessionCookie.issue(session.token, maxAge: Int(settings.sessionLifetime)))
        return response
    }

    /// An operator's live session (401, then 403 `notOperator` for a walker's), with its CSRF
    /// token checked where asked.
    func deskSession(_ request: Request, csrf: Bool) async throws -> Session {
        guard let token = SessionCookie.token(in: request) else { throw APIError.unauthenticated }
        guard let session = try await accounts.database.session(tokenHash: Secrets.digest(token), now: accounts.now())
        else { throw APIError.unauthenticated }
        try SessionGuard.check(session.role, desk: true)
        if csrf {
            let sent = request.headers.first { $0.name.canonicalName == SessionGuard.csrfHeader }?.value
            guard let sent, Secrets.equal(sent, session.csrfToken) else { throw APIError.csrf }
        }
        return session
    }

    func incidentID(_ context: WebRequestContext) throws(APIError) -> String {
        guard let id = context.parameters.get("incident"), MessageKey.isValid(id) else { throw .notFound }
        return id
    }

    static func note(_ text: String, field: FieldError.Field) throws(APIError) -> String {
        guard !text.allSatisfy(\.isWhitespace) else { throw .field(FieldError(field, .empty)) }
        guard DeskCloseRule.isUsableNote(text) else { throw .field(FieldError(field, .invalid)) }
        return text
    }

    /// `GET /v1/desk/incidents/{incident}`: the incident with its timeline; audited.
    func deskIncident(_ request: Request, _ context: WebRequestContext) async throws -> Response {
        let session = try await deskSession(request, csrf: false)
        let desk = try requireDesk()
        let id = try incidentID(context)
        guard let incident = desk.incident(id) else { throw APIError.notFound }
        try await desk.recordView(incident, by: session.username.rawValue, what: .incident)
        let (copy, ladder) = desk.board.withLock { ($0, $0.ladder(of: incident.walker, incident: id)) }
        let assignee = try await accounts.database.assignees([id])[id]
        let log = try await accounts.database.log(ofIncident: id)
        return try JSONResponse.make(
            DeskSnapshot.Incident(
                desk: settings.desk.name, incident: DeskSnapshot.row(incident, board: copy, assignee: assignee),
                timeline: DeskSnapshot.timeline(incident, ladder: ladder, log: log)))
    }

    /// `GET /v1/desk/walkers/{user}/position`: only while the walker's incident is open; audited.
    func deskWalkerPosition(_ request: Request, _ context: WebRequestContext) async throws -> Response {
        let session = try await deskSession(request, csrf: false)
        let desk = try requireDesk()
        guard let walker = context.parameters.get("user").flatMap(WalkerID.init(validating:)) else {
            throw APIError.noOpenIncident
        }
        let incident = desk.board.withLock { $0.walkers[walker]?.incident }
        guard let incident, DeskPositionRule.mayServe(incident) else { throw APIError.noOpenIncident }
        try await desk.recordView(incident, by: session.username.rawValue, what: .position)
        let position = desk.board.withLock { $0.servablePosition(of: walker) }
        return try JSONResponse.make(
            PositionAnswer(
                walker: walker, incident: incident.incident, position: position.map(DeskSnapshot.Position.init)))
    }
}
