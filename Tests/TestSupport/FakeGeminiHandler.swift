import Foundation
import NIOCore
import NIOHTTP1

/// Collects one HTTP request at a time and answers it from ``FakeGeminiState``.
final class FakeGeminiHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: FakeGeminiState
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(state: FakeGeminiState) { self.state = state }

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
            let request = FakeGeminiServer.Request(
                method: "\(head.method)", path: head.uri, headers: headers, body: Data(body))
            respond(state.handle(request), version: head.version, context: context)
        }
    }

    private func respond(_ reply: FakeGeminiReply, version: HTTPVersion, context: ChannelHandlerContext) {
        switch reply {
        case .hang:
            return
        case .drop:
            context.close(promise: nil)
        case .response(let status, let extra, let body):
            var headers = HTTPHeaders([
                ("Content-Type", "application/json; charset=UTF-8"),
                ("Content-Length", "\(body.utf8.count)"),
            ])
            for (name, value) in extra { headers.add(name: name, value: value) }
            let head = HTTPResponseHead(
                version: version, status: HTTPResponseStatus(statusCode: status), headers: headers)
            context.write(Self.wrapOutboundOut(.head(head)), promise: nil)
            context.write(Self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
            context.writeAndFlush(Self.wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
