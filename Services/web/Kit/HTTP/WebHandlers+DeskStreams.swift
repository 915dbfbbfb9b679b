import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SafeWalkCore
import ServiceLifecycle

/// The desk's two event streams: the board, and one incident's positions. Each is checked again
/// at every keep-alive (a session signed out or expired ends it), and each records a look before
/// it serves a position it has not served this operator on this stream.
extension WebHandlers {
    /// `GET /v1/desk/events`: a `board` event at once and after every change (at most one per
    /// ``DeskSettings/boardInterval``).
    func deskEvents(_ request: Request) async throws -> Response {
        let session = try await deskSession(request, csrf: false)
        let desk = try requireDesk()
        let (ticks, continuation) = desk.boards.watch(.board)
        let operatorName = session.username.rawValue
        return eventStream(session: request, continuation: continuation, keepAlive: settings.desk.keepAlive) { writer in
            var audited = Set<String>()
            for await tick in ticks.cancelOnGracefulShutdown() {
                guard tick == .changed else {
                    guard try await stillSignedIn(request) else { break }
                    try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                    continue
                }
                let board = try await desk.boardSnapshot()
                for row in board.incidents where row.position != nil && !audited.contains(row.incident) {
                    guard let incident = desk.incident(row.incident) else { continue }
                    try await desk.recordView(incident, by: operatorName, what: .board)
                    audited.insert(row.incident)
                }
                try await writer.write(ByteBuffer(string: Self.event("board", try SafeWalkJSON.encode(board))))
                try await Task.sleep(for: settings.desk.boardInterval)
            }
        }
    }

    /// `GET /v1/desk/incidents/{incident}/positions`: 403 `noOpenIncident` unless the incident is
    /// open; then each new position, and `closed` when it ends.
    func deskPositions(_ request: Request, _ context: WebRequestContext) async throws -> Response {
        let session = try await deskSession(request, csrf: false)
        let desk = try requireDesk()
        let id = try incidentID(context)
        guard let incident = desk.incident(id) else { throw APIError.notFound }
        guard DeskPositionRule.mayServe(incident) else { throw APIError.noOpenIncident }
        try await desk.recordView(incident, by: session.username.rawValue, what: .positions)
        let walker = incident.walker
        let (ticks, continuation) = desk.walkers.watch(walker)
        return eventStream(session: request, continuation: continuation, keepAlive: settings.desk.keepAlive) { writer in
            var last: DeskSnapshot.Position?
            for await tick in ticks.cancelOnGracefulShutdown() {
                guard tick == .changed else {
                    guard try await stillSignedIn(request) else { break }
                    try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                    continue
                }
                let (current, position) = desk.board.withLock {
                    ($0.walkers[walker]?.incident, $0.servablePosition(of: walker))
                }
                guard let current, current.incident == id, DeskPositionRule.mayServe(current) else {
                    try await writer.write(ByteBuffer(string: Self.event("closed", Data("{}".utf8))))
                    break
                }
                guard let position = position.map(DeskSnapshot.Position.init), position != last else { continue }
                last = position
                try await writer.write(ByteBuffer(string: Self.event("position", try SafeWalkJSON.encode(position))))
            }
        }
    }

    static func event(_ name: String, _ data: Data) -> String {
        "event: \(name)\ndata: \(String(decoding: data, as: UTF8.self))\n\n"
    }

    func stillSignedIn(_ request: Request) async throws -> Bool {
        guard let token = SessionCookie.token(in: request) else { return false }
        return try await accounts.database.session(tokenHash: Secrets.digest(token), now: accounts.now()) != nil
    }

    /// A Server-Sent Events response whose body `write` fills, with a heartbeat tick every
    /// `keepAlive` into the stream `continuation` feeds; the watch ends with the response.
    func eventStream(
        session request: Request, continuation: AsyncStream<Watchers<Desk.Watch>.Tick>.Continuation,
        keepAlive: Duration, _ write: @escaping @Sendable (inout any ResponseBodyWriter) async throws -> Void
    ) -> Response {
        eventResponse(
            heartbeat: { continuation.yield(.heartbeat) }, finish: { continuation.finish() }, keepAlive: keepAlive,
            write)
    }

    func eventStream(
        session request: Request, continuation: AsyncStream<Watchers<WalkerID>.Tick>.Continuation,
        keepAlive: Duration, _ write: @escaping @Sendable (inout any ResponseBodyWriter) async throws -> Void
    ) -> Response {
        eventResponse(
            heartbeat: { continuation.yield(.heartbeat) }, finish: { continuation.finish() }, keepAlive: keepAlive,
            write)
    }

    private func eventResponse(
        heartbeat: @escaping @Sendable () -> Void, finish: @escaping @Sendable () -> Void, keepAlive: Duration,
        _ write: @escaping @Sendable (inout any ResponseBodyWriter) async throws -> Void
    ) -> Response {
        var response = Response(
            status: .ok, headers: [.contentType: "text/event-stream; charset=utf-8"],
            body: ResponseBody { writer in
                let beat = Task {
                    while (try? await Task.sleep(for: keepAlive)) != nil { heartbeat() }
                }
                defer {
                    beat.cancel()
                    finish()
                }
                var erased: any ResponseBodyWriter = writer
                try await write(&erased)
                try await erased.finish(nil)
            })
        response.headers[HTTPField.Name("X-Accel-Buffering")!] = "no"
        return response
    }
}
