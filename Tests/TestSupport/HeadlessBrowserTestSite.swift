import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A few fixed files over real HTTP on 127.0.0.1 (a secure context to the browser, as service
/// workers and geolocation need), for proving the browser harness on pages with nothing of ours
/// in them. Paths ending in `.events` are endless `text/event-stream`s that send one `hello`.
public final class HeadlessBrowserTestSite: Sendable {
    public let port: Int
    private let channel: any Channel
    private let log: RequestLog

    public var url: String { "http://127.0.0.1:\(port)/" }

    /// The paths asked for so far, in order (query strings included).
    public var requests: [String] { log.paths.withLock { $0 } }

    private init(port: Int, channel: any Channel, log: RequestLog) {
        self.port = port
        self.channel = channel
        self.log = log
    }

    /// Serves `files` (path → (content type, body)) until ``shutdown()``.
    public static func start(_ files: [String: (type: String, body: String)]) async throws -> HeadlessBrowserTestSite {
        let log = RequestLog()
        let requests: @Sendable (String) -> Void = { path in log.paths.withLock { $0.append(path) } }
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(TestSiteHandler(files: files, requested: requests))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else {
            throw HeadlessBrowser.Failure(description: "the test site has no port")
        }
        return HeadlessBrowserTestSite(port: port, channel: channel, log: log)
    }

    public func shutdown() async { try? await channel.close() }
}

/// The paths asked for, shared by every connection's handler.
private final class RequestLog: Sendable {
    let paths = Mutex<[String]>([])
}

/// Answers each request from the site's files (404 otherwise).
private final class TestSiteHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let files: [String: (type: String, body: String)]
    let requested: @Sendable (String) -> Void

    init(files: [String: (type: String, body: String)], requested: @escaping @Sendable (String) -> Void) {
        self.files = files
        self.requested = requested
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let request) = Self.unwrapInboundIn(data) else { return }
        requested(request.uri)
        let path = String(request.uri.split(separator: "?", maxSplits: 1).first ?? "")
        if path.hasSuffix(".events") {
            let headers = HTTPHeaders([("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")])
            context.write(
                Self.wrapOutboundOut(.head(.init(version: request.version, status: .ok, headers: headers))),
                promise: nil)
            context.writeAndFlush(
                Self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "data: hello\n\n")))), promise: nil)
            return
        }
        let file = files[path]
        let body = ByteBuffer(string: file?.body ?? "not found")
        let headers = HTTPHeaders([
            ("Content-Type", file?.type ?? "text/plain"), ("Content-Length", "\(body.readableBytes)"),
            ("Cache-Control", "no-store"),
        ])
        let head = HTTPResponseHead(version: request.version, status: file == nil ? .notFound : .ok, headers: headers)
        context.write(Self.wrapOutboundOut(.head(head)), promise: nil)
        context.write(Self.wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(Self.wrapOutboundOut(.end(nil)), promise: nil)
    }
}
