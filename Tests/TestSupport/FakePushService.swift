import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A stand-in for a browser's push service (RFC 8030) on 127.0.0.1, as strict as a real one:
/// every request must carry a VAPID `Authorization` (RFC 8292) whose ES256 signature verifies with
/// its `k`, whose `k` is the key the subscription was made with, whose `aud` is this service's
/// origin and whose `exp` is in the next 24 hours; the body must be `aes128gcm` (RFC 8291) and it
/// is decrypted with the subscription's private key, as the browser would. Accepted messages are
/// recorded decrypted; refused ones are recorded with why.
///
/// The crypto here is written from the RFCs independently of web's (``FakePushCrypto``), so a
/// mistake on one side is not mirrored on the other.
public final class FakePushService: Sendable {
    /// A browser's subscription: what the page would PUT to web, and the private half the browser keeps.
    public struct Subscription: Sendable {
        public let id: String
        public let endpoint: String
        /// base64url, as `PushSubscription.toJSON()` gives them.
        public let p256dh: String
        public let auth: String
        let privateKey: P256.KeyAgreement.PrivateKey
        let authSecret: Data
        /// The `applicationServerKey` it was made with (web's VAPID public key), base64url.
        let applicationServerKey: String

        /// `{"endpoint","keys":{"p256dh","auth"}}`.
        public var json: String {
            #"{"endpoint":"\#(endpoint)","expirationTime":null,"keys":{"p256dh":"\#(p256dh)","auth":"\#(auth)"}}"#
        }
    }

    /// One push the service took, decrypted.
    public struct Message: Sendable {
        public let subscription: String
        /// Header names lowercased.
        public let headers: [String: String]
        public let plaintext: Data
        /// The JWT's claims.
        public let audience: String
        public let subject: String
        public let expires: Int

        /// The plaintext as a JSON object of strings (web's `{"title","body","tag","url"}`).
        public var fields: [String: String] {
            (try? JSONDecoder().decode([String: String].self, from: plaintext)) ?? [:]
        }
    }

    public let port: Int
    private let channel: any Channel
    let state: FakePushState

    public var origin: String { "http://127.0.0.1:\(port)" }

    private init(port: Int, channel: any Channel, state: FakePushState) {
        self.port = port
        self.channel = channel
        self.state = state
    }

    public static func start() async throws -> FakePushService {
        let state = FakePushState()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(FakePushHandler(state: state))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else { throw FakePushError.noPort }
        state.setOrigin("http://127.0.0.1:\(port)")
        return FakePushService(port: port, channel: channel, state: state)
    }

    /// What `pushManager.subscribe({applicationServerKey})` would make: a fresh key pair and auth
    /// secret, and an endpoint on this service.
    public func subscribe(applicationServerKey: String) -> Subscription {
        let id = UUID().uuidString.lowercased()
        let key = P256.KeyAgreement.PrivateKey()
        let auth = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let subscription = Subscription(
            id: id, endpoint: "\(origin)/push/\(id)",
            p256dh: FakePushCrypto.base64URL(key.publicKey.x963Representation),
            auth: FakePushCrypto.base64URL(auth), privateKey: key, authSecret: auth,
            applicationServerKey: applicationServerKey)
        state.add(subscription)
        return subscription
    }

    /// The subscription expired (the user revoked permission, the browser was reset): 410 from now on.
    public func expire(_ subscription: Subscription) { state.expire(subscription.id) }

    /// The next `count` requests are answered `status` (and `Retry-After`, if given) without
    /// being looked at: an overloaded service.
    public func failNext(_ count: Int, status: Int, retryAfter: Int? = nil) {
        state.failNext(count, status: status, retryAfter: retryAfter)
    }

    public var messages: [Message] { state.messages }
    /// Requests refused, with why (`badSignature`, `wrongKey`, `wrongAudience`, ...), and requests
    /// answered by ``failNext(_:status:retryAfter:)`` (`scripted`) or to an expired subscription (`gone`).
    public var refusals: [String] { state.refusals }
    public var requestCount: Int { state.requestCount }

    /// Returns once `count` messages were accepted in total.
    public func waitForMessages(_ count: Int) async { await state.waitForMessages(count) }
    /// Returns once `count` requests arrived in total (accepted or not).
    public func waitForRequests(_ count: Int) async { await state.waitForRequests(count) }

    public func shutdown() async {
        try? await channel.close()
    }
}

enum FakePushError: Error { case noPort }

/// The service's subscriptions, script and records.
final class FakePushState: Sendable {
    private struct Inner {
        var origin = ""
        var subscriptions: [String: FakePushService.Subscription] = [:]
        var expired: Set<String> = []
        var failures: [(status: Int, retryAfter: Int?)] = []
        var messages: [FakePushService.Message] = []
        var refusals: [String] = []
        var requests = 0
        var messageWaiters = ParkedWaiters<Int>()
        var requestWaiters = ParkedWaiters<Int>()
    }

    private let inner = Mutex(Inner())

    func setOrigin(_ origin: String) { inner.withLock { $0.origin = origin } }
    func add(_ subscription: FakePushService.Subscription) {
        inner.withLock { $0.subscriptions[subscription.id] = subscription }
    }
    func expire(_ id: String) { inner.withLock { _ = $0.expired.insert(id) } }
    func failNext(_ count: Int, status: Int, retryAfter: Int?) {
        inner.withLock { $0.failures += Array(repeating: (status, retryAfter), count: count) }
    }
    var messages: [FakePushService.Message] { inner.withLock { $0.messages } }
    var refusals: [String] { inner.withLock { $0.refusals } }
    var requestCount: Int { inner.withLock { $0.requests } }

    func waitForMessages(_ count: Int) async {
        await inner.wait(until: count, parkedIn: \.messageWaiters) { $0.messages.count >= count }
    }
    func waitForRequests(_ count: Int) async {
        await inner.wait(until: count, parkedIn: \.requestWaiters) { $0.requests >= count }
    }

    /// The status to answer, after recording what happened.
    func handle(method: String, path: String, headers: [String: String], body: Data) -> (Int, [(String, String)]) {
        inner.withLock { inner in
            inner.requests += 1
            let requests = inner.requests
            defer { inner.requestWaiters.release { $0 <= requests }.forEach { $0.resume() } }
            if !inner.failures.isEmpty {
                let failure = inner.failures.removeFirst()
                inner.refusals.append("scripted")
                return (failure.status, failure.retryAfter.map { [("Retry-After", "\($0)")] } ?? [])
            }
            guard method == "POST", path.hasPrefix("/push/"),
                let subscription = inner.subscriptions[String(path.dropFirst("/push/".count))]
            else {
                inner.refusals.append("unknownSubscription")
                return (404, [])
            }
            if inner.expired.contains(subscription.id) {
                inner.refusals.append("gone")
                return (410, [])
            }
            switch FakePushCrypto.accept(
                headers: headers, body: body, subscription: subscription, origin: inner.origin, now: Date())
            {
            case .failure(let refusal):
                inner.refusals.append(refusal.reason)
                return (refusal.status, [])
            case .success(let message):
                inner.messages.append(message)
                let count = inner.messages.count
                inner.messageWaiters.release { $0 <= count }.forEach { $0.resume() }
                return (201, [("Location", "\(inner.origin)/message/\(UUID().uuidString)")])
            }
        }
    }
}

/// Collects one request at a time and answers it from ``FakePushState``.
final class FakePushHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: FakePushState
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(state: FakePushState) { self.state = state }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch Self.unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(var buffer):
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let head else { return }
            var headers: [String: String] = [:]
            for (name, value) in head.headers { headers[name.lowercased()] = value }
            let (status, extra) = state.handle(
                method: "\(head.method)", path: head.uri, headers: headers, body: Data(body))
            var responseHeaders = HTTPHeaders([("Content-Length", "0")])
            for (name, value) in extra { responseHeaders.add(name: name, value: value) }
            let response = HTTPResponseHead(
                version: head.version, status: HTTPResponseStatus(statusCode: status), headers: responseHeaders)
            context.write(Self.wrapOutboundOut(.head(response)), promise: nil)
            context.writeAndFlush(Self.wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
