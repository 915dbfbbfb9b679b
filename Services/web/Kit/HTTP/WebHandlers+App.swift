import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SafeWalkCore
import ServiceLifecycle

/// `GET /v1/sessions/current`, `GET /v1/app/events`, `POST /v1/app/publish`: the walker's app
/// (docs/services/web.md, "The walker's app API"). Each use slides the session's expiry and
/// renews the cookie's Max-Age.
extension WebHandlers {
    /// The session the cookie names, checked like ``SessionGuard`` (CSRF only where asked), and
    /// its expiry slid forward.
    func appSession(_ request: Request, csrf: Bool) async throws -> (
        session: Session, token: String, login: SessionLogin
    ) {
        guard let token = SessionCookie.token(in: request) else { throw APIError.unauthenticated }
        let tokenHash = Secrets.digest(token)
        let now = accounts.now()
        guard var session = try await accounts.database.session(tokenHash: tokenHash, now: now) else {
            throw APIError.unauthenticated
        }
        try SessionGuard.check(session.role, desk: false)
        if csrf {
            let sent = request.headers.first { $0.name.canonicalName == SessionGuard.csrfHeader }?.value
            guard let sent, Secrets.equal(sent, session.csrfToken) else { throw APIError.csrf }
        }
        if let next = SessionSlide.next(expiresAt: session.expiresAt, now: now, lifetime: settings.sessionLifetime) {
            try await accounts.database.slideSession(tokenHash: tokenHash, expiresAt: next)
            session.expiresAt = next
        }
        return (session, token, SessionLogin(user: session.username, tokenHash: tokenHash))
    }

    func renewCookie(_ response: inout Response, token: String, session: Session) {
        let left = Int(session.expiresAt.timeIntervalSince(accounts.now()).rounded(.down))
        response.setCookie(SessionCookie.issue(token, maxAge: max(1, left)))
    }

    func currentSession(_ request: Request) async throws -> Response {
        let (session, token, _) = try await appSession(request, csrf: false)
        var response = try JSONResponse.make(
            SessionAnswer(
                username: session.username, csrfToken: session.csrfToken,
                expiresAt: Int(session.expiresAt.timeIntervalSince1970)))
        renewCookie(&response, token: token, session: session)
        return response
    }

    struct PublishAnswer: Codable { var published: Bool }

    func appPublish(_ request: Request) async throws -> Response {
        let (session, token, login) = try await appSession(request, csrf: true)
        let body = try await JSONBody.bytes(of: request, limit: AppInput.maxBytes)
        let input = try AppInput.read(Data(body.readableBytesView))
        guard let app else { throw APIError.brokerUnavailable }
        try await app.publish(input, login, token: token)
        var response = try JSONResponse.make(PublishAnswer(published: true), status: .accepted)
        renewCookie(&response, token: token, session: session)
        return response
    }

    /// Server-Sent Events of the walker's own topics, received as the session's login; a
    /// keep-alive comment every ``AppSettings/keepAlive``, when the session is also checked
    /// again (signed out, expired or erased: the stream ends).
    func appEvents(_ request: Request) async throws -> Response {
        let (_, token, login) = try await appSession(request, csrf: false)
        guard let app else { throw APIError.brokerUnavailable }
        let (id, events) = try await app.openStream(login, token: token)
        let (keepAlive, database, now) = (accounts.settings.app.keepAlive, accounts.database, accounts.now)
        let tokenHash = Secrets.digest(token)
        var response = Response(
            status: .ok, headers: [.contentType: "text/event-stream; charset=utf-8"],
            body: ResponseBody { writer in
                let (merged, continuation) = AsyncStream.makeStream(of: AppEvent.self)
                let forward = Task {
                    for await event in events { continuation.yield(event) }
                    continuation.finish()
                }
                let beat = Task {
                    while (try? await Task.sleep(for: keepAlive)) != nil { continuation.yield(.keepAlive) }
                }
                defer {
                    forward.cancel()
                    beat.cancel()
                    continuation.finish()
                    Task { await app.streamEnded(login, id: id) }
                }
                for await event in merged.cancelOnGracefulShutdown() {
                    if event == .keepAlive, try await database.session(tokenHash: tokenHash, now: now()) == nil {
                        break
                    }
                    try await writer.write(ByteBuffer(string: event.text))
                }
                try await writer.finish(nil)
            })
        response.headers[HTTPField.Name("X-Accel-Buffering")!] = "no"  // nginx: pass events on at once
        return response
    }
}
