import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SafeWalkCore
import SafeWalkService

/// `GET /i/{token}`, `GET /i/{token}/events`, `POST /i/{token}/ack`: a contact's live page. The
/// token is checked for shape before anything else, then found by its digest. Only the POST of the
/// page's own form acknowledges: a GET never does, whoever sends it (a link preview fetches links).
extension WebHandlers {
    enum Found {
        case page(LivePages, token: String, digest: String, PageRecord, PageSnapshot)
        case answered(Response)
    }

    /// The rate limit, the token's shape, the lookup: a live page, or the answer to send instead.
    func findPage(_ request: Request, _ context: WebRequestContext) async throws -> Found {
        guard let live else { throw APIError.notFound }
        if let wait = accounts.gate.admit([(.pagePerAddress, client(request, context))]) {
            var response = HTMLResponse.refusal(
                .tooManyRequests, reason: "rateLimited", title: "Too many requests",
                text: "Please wait a moment and reload the page.")
            response.headers[.retryAfter] = String(max(1, Int(wait.seconds.rounded(.up))))
            return .answered(response)
        }
        let token = context.parameters.get("token") ?? ""
        guard PageToken.isWellFormed(token) else { return .answered(Self.notValid) }
        let digest = PageToken.digest(token)
        switch try await live.lookup(digest) {
        case .unknown: return .answered(Self.notValid)
        case .expired: return .answered(Self.expired)
        case .live(let page, let snapshot): return .page(live, token: token, digest: digest, page, snapshot)
        }
    }

    static var notValid: Response {
        HTMLResponse.refusal(
            .notFound, reason: "unknownPage", title: "This link is not valid",
            text: "Check that the whole link from the text message was opened.")
    }

    static var expired: Response {
        HTMLResponse.refusal(
            .gone, reason: "expiredPage", title: "This link has expired",
            text: "The alert it was sent for has ended.")
    }

    func livePage(_ request: Request, _ context: WebRequestContext) async throws -> Response {
        let found = try await findPage(request, context)
        guard case .page(let live, let token, let digest, _, let snapshot) = found else { return found.answer }
        let tiles = files.hasLeaflet ? settings.live.tiles : nil
        return HTMLResponse.make(
            PageHTML.page(snapshot, token: token, buttonKey: live.buttonKey(digest), tiles: tiles), tiles: tiles)
    }

    /// Server-Sent Events: a `snapshot` on connect and after every change of the walker's ladder,
    /// incident or position (only when what the page shows changed), a comment every
    /// ``LiveSettings/heartbeat``, and `expired` (then the end) once the page dies.
    func liveEvents(_ request: Request, _ context: WebRequestContext) async throws -> Response {
        let found = try await findPage(request, context)
        guard case .page(let live, _, let digest, let page, _) = found else { return found.answer }
        let heartbeat = settings.live.heartbeat
        var response = Response(
            status: .ok, headers: [.contentType: "text/event-stream; charset=utf-8"],
            body: ResponseBody { writer in
                let (ticks, continuation) = live.watch(page.walker)
                let beat = Task {
                    while (try? await Task.sleep(for: heartbeat)) != nil { continuation.yield(.heartbeat) }
                }
                defer {
                    beat.cancel()
                    continuation.finish()
                }
                var sent: PageSnapshot?
                for await tick in ticks.cancelOnGracefulShutdown() {
                    guard case .live(_, var snapshot) = try await live.lookup(digest) else {
                        try await writer.write(ByteBuffer(string: "event: expired\ndata: {}\n\n"))
                        break
                    }
                    if tick == .heartbeat { try await writer.write(ByteBuffer(string: ": heartbeat\n\n")) }
                    let now = snapshot.now
                    snapshot.now = 0  // the clock alone is no change
                    guard snapshot != sent else { continue }
                    sent = snapshot
                    snapshot.now = now
                    let json = String(decoding: try SafeWalkJSON.encode(snapshot), as: UTF8.self)
                    try await writer.write(ByteBuffer(string: "event: snapshot\ndata: \(json)\n\n"))
                }
                try await writer.finish(nil)
            })
        HTMLResponse.protect(&response, tiles: nil)
        response.headers[HTTPField.Name("X-Accel-Buffering")!] = "no"  // nginx: pass events on at once
        return response
    }

    /// The page's "I'm on it" button: the form's key must be this page's, then the notifier is
    /// asked and its answer shown (303 back to the page on yes).
    func acknowledge(_ request: Request, _ context: WebRequestContext) async throws -> Response {
        let found = try await findPage(request, context)
        guard case .page(let live, let token, let digest, _, let snapshot) = found else { return found.answer }
        let walker = snapshot.walker
        if snapshot.state == "closed" { return Self.alreadySafe(walker) }
        let form: [(name: String, value: String)]
        do {
            form = try await FormBody.read(request, limit: 1_024)
        } catch let error as APIError {
            return HTMLResponse.refusal(
                error.status, reason: error.metricReason, title: "The button did not work",
                text: "Reload the page and press the button again.")
        }
        guard let key = form[form: "key"], Secrets.equal(key, live.buttonKey(digest)) else {
            return HTMLResponse.refusal(
                .forbidden, reason: "badButtonKey", title: "The button did not work",
                text: "Reload the page and press the button again.")
        }
        // The walker names the notifier instance whose ledger holds the page when the walkers
        // are split among several (docs/SCALING.md, "The notifier partitioned").
        let asked = AcknowledgementRequest(
            id: UUID().uuidString.lowercased(), via: .page, page: digest, walker: try? WalkerID(walker),
            at: Date().timeIntervalSince1970)
        let result: AcknowledgementResult
        do {
            result = try await live.acknowledge(asked)
        } catch {
            accounts.logger.error("acknowledgement not answered", metadata: ["error": "\(error)"])
            return HTMLResponse.refusal(
                .serviceUnavailable, reason: "unavailable", title: "SafeWalk did not answer",
                text: "Your answer could not be passed on. Please try again, or call \(walker) directly.")
        }
        if result.ok {
            var response = Response(status: .seeOther)
            response.headers[.location] = "/i/\(token)"
            HTMLResponse.protect(&response, tiles: nil)
            return response
        }
        switch result.error {
        case .closed: return Self.alreadySafe(walker)
        case .unknownRecipient: return Self.expired
        case .refused, .codeNeeded, nil:
            return HTMLResponse.refusal(
                .badRequest, reason: "refused", title: "The button did not work",
                text: "Reload the page and press the button again.")
        }
    }

    /// A GET on the button's address: acknowledging takes the page's form (POST), never a link.
    func acknowledgeByGet() -> Response {
        var response = HTMLResponse.refusal(
            .methodNotAllowed, reason: "methodNotAllowed", title: "Use the button on the page",
            text: "Open the link you were sent and press “I’m on it”.")
        response.headers[.allow] = "POST"
        return response
    }

    static func alreadySafe(_ walker: String) -> Response {
        HTMLResponse.refusal(
            .conflict, reason: "closed", title: "\(walker) is already safe", text: "The alert has ended. Thank you.")
    }
}

extension WebHandlers.Found {
    /// The answer already made (only for ``answered(_:)``).
    var answer: Response {
        if case .answered(let response) = self { return response }
        return Response(status: .internalServerError)
    }
}
