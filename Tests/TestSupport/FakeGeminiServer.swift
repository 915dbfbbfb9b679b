import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A stand-in for Google's Gemini API on 127.0.0.1, speaking its real REST wire format: the
/// same path (`/v1beta/models/{model}:generateContent`), the `x-goog-api-key` header, the
/// same success, safety-block and error bodies. Bodies are written here as literal JSON in
/// Google's documented shape, never with the production `Codable` types, so a mismatch in
/// those types fails the tests. Each request takes the next scripted behaviour (an answer
/// when the script is empty) and is recorded for assertions.
public final class FakeGeminiServer: Sendable {
    public enum Behaviour: Sendable {
        case answer(String)
        /// An error status with Google's error body; `retryAfter` becomes a header.
        case fail(Int, retryAfter: String? = nil)
        /// 429 with a `Retry-After` header and/or a `google.rpc.RetryInfo` delay ("30s").
        case rateLimited(retryAfter: String?, retryInfo: String?)
        /// Reads the request and never answers.
        case hang
        /// 200 with no candidates and `promptFeedback.blockReason`.
        case blockedPrompt(String)
        /// 200 with a candidate stopped by `finishReason` and no content.
        case blockedCandidate(String)
        /// 200 with a body cut off mid-JSON.
        case malformed
        /// Closes the connection without answering (a network failure).
        case dropConnection
    }

    public struct Request: Sendable {
        public var method: String
        public var path: String
        /// Header names lowercased.
        public var headers: [String: String]
        public var body: Data

        /// The body as generic JSON, for asserting its shape independently of our types.
        public func json() -> [String: Any]? {
            (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        }
    }

    public let port: Int
    public let apiKey: String
    public let model: String
    private let channel: any Channel
    let state: FakeGeminiState

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private init(port: Int, apiKey: String, model: String, channel: any Channel, state: FakeGeminiState) {
        self.port = port
        self.apiKey = apiKey
        self.model = model
        self.channel = channel
        self.state = state
    }

    public static func start(
        apiKey: String = "test-key-\(UUID().uuidString.prefix(8))",
        model: String = "gemini-2.0-flash"
    ) async throws -> FakeGeminiServer {
        let state = FakeGeminiState(apiKey: apiKey, model: model)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                state.track(channel)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(FakeGeminiHandler(state: state))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else { throw FakeGeminiError.noPort }
        return FakeGeminiServer(port: port, apiKey: apiKey, model: model, channel: channel, state: state)
    }

    /// Behaviours for the next requests, in order.
    public func script(_ behaviours: Behaviour...) { state.script(behaviours) }

    public var requests: [Request] { state.requests }

    /// Returns once `count` requests have arrived in total.
    public func waitForRequests(_ count: Int) async { await state.waitForRequests(count) }

    /// Stops listening and closes every connection (hung ones included).
    public func shutdown() async {
        try? await channel.close()
        await state.closeConnections()
    }
}

enum FakeGeminiError: Error { case noPort }

/// The server's shared state: script, recorded requests and open connections.
final class FakeGeminiState: Sendable {
    private struct Inner {
        var script: [FakeGeminiServer.Behaviour] = []
        var requests: [FakeGeminiServer.Request] = []
        var connections: [any Channel] = []
        var waiters = ParkedWaiters<Int>()
    }

    let apiKey: String
    let model: String
    private let inner = Mutex(Inner())

    init(apiKey: String, model: String) {
        self.apiKey = apiKey
        self.model = model
    }

    public func script(_ behaviours: [FakeGeminiServer.Behaviour]) { inner.withLock { $0.script += behaviours } }

    var requests: [FakeGeminiServer.Request] { inner.withLock { $0.requests } }

    func track(_ channel: any Channel) { inner.withLock { $0.connections.append(channel) } }

    func closeConnections() async {
        for channel in inner.withLock({ $0.connections }) { try? await channel.close() }
    }

    func waitForRequests(_ count: Int) async {
        await inner.wait(until: count, parkedIn: \.waiters) { $0.requests.count >= count }
    }

    /// Records the request and decides the reply, as Google would: path and key first.
    func handle(_ request: FakeGeminiServer.Request) -> FakeGeminiReply {
        let behaviour: FakeGeminiServer.Behaviour? = inner.withLock { inner in
            inner.requests.append(request)
            let count = inner.requests.count
            inner.waiters.release { $0 <= count }.forEach { $0.resume() }
            guard FakeGeminiReply.isAuthorised(request, path: path, apiKey: apiKey) else { return nil }
            return inner.script.isEmpty
                ? .answer("I'm here with you. How is the walk going?") : inner.script.removeFirst()
        }
        guard let behaviour else { return FakeGeminiReply.refusal(for: request, path: path, apiKey: apiKey) }
        return FakeGeminiReply.reply(for: behaviour, model: model)
    }

    private var path: String { "/v1beta/models/\(model):generateContent" }
}
