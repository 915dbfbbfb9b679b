import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One of web's server-sent event streams (the monitoring desk's board, an incident's positions)
/// read over a plain loopback socket as a signed-in browser reads it: every event with the
/// moment it was read, so a test can say how soon after something happened the desk saw it.
///
/// A socket read on its own thread, as `AppEventStream` does in the app's story: `close()` is
/// certain to reach web at once. The body is de-chunked here (web streams with chunked encoding).
public final class DeskEventStream: Sendable {
    /// One `event:` / `data:` block.
    public struct Event: Sendable {
        public let name: String
        public let data: String
        /// When the block was complete on this side, on the test's clock and on the wall clock.
        public let received: ContinuousClock.Instant
        public let receivedAt: Double

        /// `data` as a JSON object, if it is one.
        public var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any]
        }
    }

    private struct Reader {
        var head: [UInt8] = []
        var status: Int?
        var chunked = false
        var pending: [UInt8] = []
        var body: [UInt8] = []
        var events: [Event] = []
        var ended = false
    }

    private let reader = Mutex(Reader())
    private let socket: Int32

    /// Opens `path` on web at `port` with the session `cookie` (`safewalk_session=…`).
    public init(port: Int, path: String, cookie: String) throws {
        let fd = try Loopback.connectedSocket(port: port)
        socket = fd
        let request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\n"
            + "Accept: text/event-stream\r\n\r\n"
        _ = request.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                let now = ContinuousClock.now
                let wall = Date().timeIntervalSince1970
                reader.withLock { Self.take(Array(buffer[0..<count]), into: &$0, at: now, wall: wall) }
            }
            reader.withLock { $0.ended = true }
        }
    }

    deinit { Glibc.close(socket) }

    /// Every event so far, in order.
    public var events: [Event] { reader.withLock { $0.events } }
    /// The response's status, once its head arrived.
    public var status: Int? { reader.withLock { $0.status } }
    /// Whether web ended the stream (or the connection dropped).
    public var ended: Bool { reader.withLock { $0.ended } }

    /// The first event called `name` that satisfies `condition` (already read or still to come).
    public func first(
        _ name: String, within seconds: Double = 20, where condition: (Event) -> Bool = { _ in true }
    ) async throws -> Event {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            if let event = events.first(where: { $0.name == name && condition($0) }) { return event }
            guard ContinuousClock.now < deadline, !ended else {
                throw HarnessError.timedOut(
                    "a \(name) event (status \(status.map(String.init) ?? "none"), ended \(ended)): "
                        + events.suffix(3).map(\.data).joined(separator: "\n"))
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Drops the connection, as a closed tab does.
    public func close() { _ = Glibc.shutdown(socket, Int32(SHUT_RDWR)) }

    // MARK: Reading

    private static let headEnd: [UInt8] = Array("\r\n\r\n".utf8)
    private static let lineEnd: [UInt8] = Array("\r\n".utf8)

    private static func take(_ bytes: [UInt8], into reader: inout Reader, at now: ContinuousClock.Instant, wall: Double)
    {
        var more = bytes
        if reader.status == nil {
            reader.head += more
            guard let end = index(of: headEnd, in: reader.head) else { return }
            let head = String(decoding: reader.head[..<end], as: UTF8.self)
            let lines = head.components(separatedBy: "\r\n")
            reader.status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
            reader.chunked = lines.dropFirst().contains {
                $0.lowercased().hasPrefix("transfer-encoding:") && $0.lowercased().contains("chunked")
            }
            more = Array(reader.head[(end + headEnd.count)...])
            reader.head = []
        }
        if reader.chunked {
            reader.pending += more
            while let line = index(of: lineEnd, in: reader.pending) {
                let sizeText =
                    String(decoding: reader.pending[..<line], as: UTF8.self)
                    .split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                guard let size = Int(sizeText, radix: 16) else {
                    reader.ended = true
                    return
                }
                let start = line + lineEnd.count
                guard reader.pending.count >= start + size + lineEnd.count else { break }
                reader.body += reader.pending[start..<(start + size)]
                reader.pending.removeFirst(start + size + lineEnd.count)
                if size == 0 { reader.ended = true }
            }
        } else {
            reader.body += more
        }
        parseEvents(&reader, at: now, wall: wall)
    }

    private static func parseEvents(_ reader: inout Reader, at now: ContinuousClock.Instant, wall: Double) {
        let separator: [UInt8] = Array("\n\n".utf8)
        while let end = index(of: separator, in: reader.body) {
            let block = String(decoding: reader.body[..<end], as: UTF8.self)
            reader.body.removeFirst(end + separator.count)
            var name = "message"
            var data: [String] = []
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("event:") {
                    name = line.dropFirst("event:".count).trimmingCharacters(in: .whitespaces)
                } else if line.hasPrefix("data:") {
                    data.append(String(line.dropFirst("data:".count).drop { $0 == " " }))
                }
            }
            guard !data.isEmpty else { continue }  // a comment (keep-alive)
            reader.events.append(
                Event(name: name, data: data.joined(separator: "\n"), received: now, receivedAt: wall))
        }
    }

    private static func index(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return start }
        }
        return nil
    }
}
