import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import SafeWalkWebKit
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// web's live pages on a real Mosquitto: the test publishes ladders, incidents and positions as
/// the notifier, the watchdog and location-ingest would, and plays the notifier's side of
/// `_acks/request`, over real loopback HTTP. Time is a value the test moves (for the grace).
struct LiveFixture: Sendable {
    static let authToken = "twilio-test-auth-token"
    static let publicURL = "https://safewalk.example.org"
    static let alice = WalkerID(validating: "alice")!

    let web: WebFixture
    let broker: MosquittoBroker
    let bus: MQTTClient
    let peer: MQTTClient
    let live: LivePages
    let clock: WallTime

    static func start(_ adjust: (inout WebSettings) -> Void = { _ in }) async throws -> LiveFixture {
        var settings = WebSettings()
        settings.live.twilioAuthToken = authToken
        settings.live.publicURL = publicURL
        settings.live.acknowledgementWait = .seconds(3)
        adjust(&settings)
        let web = try WebFixture(settings: settings)
        let broker = try await MosquittoBroker.start()
        let bus = try await broker.client("web")
        let peer = try await broker.client("peer")
        let clock = WallTime()
        var logger = Logger(label: "live-test")
        logger.logLevel = .critical
        let live = try await LivePages.connect(
            bus: bus, prefix: "safewalk", database: web.accounts.database, settings: settings.live, logger: logger,
            now: { clock.now })
        return LiveFixture(web: web, broker: broker, bus: bus, peer: peer, live: live, clock: clock)
    }

    var now: Double { clock.now }
    func advance(_ seconds: Double) { clock.advance(seconds) }

    /// Runs `test` with web listening on a free loopback port; the port is given for raw streams.
    func serve(_ test: @escaping @Sendable (any TestClientProtocol, Int) async throws -> Void) async throws {
        let intake = Task { try await live.run() }
        defer { intake.cancel() }
        try await WebApplication.make(accounts: web.accounts, live: live).test(.live) { client in
            try await test(client, try #require(client.port))
        }
        await bus.shutdown()
        await peer.shutdown()
        await broker.shutdown()
    }

    func publish(_ topic: Topic, _ value: some Encodable, retain: Bool = true) async throws {
        try await peer.publish(topic.name(prefix: "safewalk"), payload: try SafeWalkJSON.encode(value), retain: retain)
    }

    /// A ladder with one recipient per token, told at once.
    func ladder(
        _ tokens: [(name: String, token: String)], incident: String = "i-1", state: IncidentState.Phase = .open,
        acknowledgedBy: String? = nil
    ) -> LadderState {
        let opened = now - 120
        return LadderState(
            incident: incident, walker: Self.alice, state: state, level: .amber, reason: .noReply, openedAt: opened,
            closedAt: state == .closed ? now : nil, tier: 1,
            acknowledgement: acknowledgedBy.map { LadderAcknowledgement(by: $0, via: .page, at: opened + 60) },
            recipients: tokens.map {
                LadderRecipient(
                    name: $0.name, tier: 1, channel: "sms-http", display: "+*******0101",
                    page: PageToken.digest($0.token), toldAt: opened + 1)
            },
            timeline: [LadderEntry(at: opened, kind: .opened, text: "alice did not answer a check-in")])
    }

    func position(lat: Double, lon: Double) -> PositionUpdate {
        PositionUpdate(
            fix: LocationFix(lat: lat, lon: lon, tst: now - 30, acc: 8, batt: 72), moved: true, lastMovedAt: now - 30)
    }

    /// Polls until `path` answers `status` (the intake reads the broker on its own task).
    func until(
        _ client: any TestClientProtocol, _ path: String, is status: HTTPResponse.Status,
        containing text: String? = nil
    ) async throws -> TestResponse {
        var last: TestResponse?
        for _ in 0..<100 {
            let response = try await client.execute(uri: path, method: .get)
            if response.status == status && text.map({ response.text.contains($0) }) != false { return response }
            last = response
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("\(path) never answered \(status) with \(text ?? "-"): \(last?.status as Any) \(last?.text ?? "")")
        throw HarnessError.timedOut(path)
    }
}

/// Epoch seconds that only the test moves.
final class WallTime: Sendable {
    private let value = Mutex(Date().timeIntervalSince1970)
    var now: Double { value.withLock { $0 } }
    func advance(_ seconds: Double) { value.withLock { $0 += seconds } }
}

extension TestResponse {
    var text: String { String(buffer: body) }
}

/// A Server-Sent Events reader over a plain socket: reads until the stream holds `needle`.
///
/// The blocking reads run on a thread of their own, never on Swift's cooperative pool: that pool
/// has one thread per core (two here), and a read parked on it for up to `seconds` left the
/// HTTP servers of every other test (and this one's) without a thread to answer on, so a full
/// run timed out with nothing received.
enum EventStream {
    static func read(
        port: Int, path: String, cookie: String? = nil, until needles: [String], within seconds: Int = 10
    ) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        try blockingRead(port: port, path: path, cookie: cookie, until: needles, within: seconds)
                    })
            }
        }
    }

    private static func blockingRead(
        port: Int, path: String, cookie: String?, until needles: [String], within seconds: Int
    ) throws -> String {
        let fd = try Loopback.connectedSocket(port: port)
        defer { close(fd) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let cookieLine = cookie.map { "Cookie: \(SessionCookie.name)=\($0)\r\n" } ?? ""
        let request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\(cookieLine)\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var remaining = needles
        while !remaining.isEmpty {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else {
                throw HarnessError.timedOut("\(remaining) in \(String(decoding: received, as: UTF8.self))")
            }
            received.append(contentsOf: buffer[0..<count])
            let text = String(decoding: received, as: UTF8.self)
            while let first = remaining.first, text.contains(first) { remaining.removeFirst() }
        }
        return String(decoding: received, as: UTF8.self)
    }
}
