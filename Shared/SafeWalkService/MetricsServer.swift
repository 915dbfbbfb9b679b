import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus
import ServiceLifecycle

/// Serves `GET /metrics` (Prometheus text format) and `GET /health` (200 while connected to the
/// broker, 503 otherwise) over plain HTTP. Observability must never take a service down: if the
/// port cannot be bound, it logs an error and the service runs on without it.
struct MetricsServer: Service {
    let host: String
    let port: Int
    let registry: PrometheusCollectorRegistry
    let isHealthy: @Sendable () -> Bool
    let logger: Logger

    typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

    func run() async throws {
        let server: NIOAsyncChannel<Connection, Never>
        do {
            server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        return try Connection(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            logger.error(
                "metrics endpoint unavailable", metadata: ["host": "\(host)", "port": "\(port)", "error": "\(error)"])
            try? await gracefulShutdown()
            return
        }
        logger.info("metrics endpoint listening", metadata: ["address": "http://\(host):\(port)/metrics"])
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                try await server.executeThenClose { connections in
                    for try await connection in connections {
                        group.addTask { await respond(on: connection) }
                    }
                }
            }
        } onGracefulShutdown: {
            server.channel.close(promise: nil)
        }
    }

    private func respond(on connection: Connection) async {
        try? await connection.executeThenClose { inbound, outbound in
            var path: String?
            for try await part in inbound {
                switch part {
                case .head(let head): path = head.method == .GET ? head.uri : nil
                case .body: continue
                case .end:
                    let (status, body) = answer(path)
                    var headers = HTTPHeaders()
                    headers.add(name: "Content-Type", value: "text/plain; version=0.0.4; charset=utf-8")
                    headers.add(name: "Content-Length", value: "\(body.count)")
                    headers.add(name: "Connection", value: "close")
                    try await outbound.write(
                        .head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)))
                    try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body))))
                    try await outbound.write(.end(nil))
                    return
                }
            }
        }
    }

    private func answer(_ path: String?) -> (HTTPResponseStatus, [UInt8]) {
        switch path {
        case "/metrics": (.ok, registry.emitToBuffer())
        case "/health": isHealthy() ? (.ok, Array("online\n".utf8)) : (.serviceUnavailable, Array("offline\n".utf8))
        case nil: (.methodNotAllowed, Array("GET only\n".utf8))
        default: (.notFound, Array("try /metrics or /health\n".utf8))
        }
    }
}
