import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPCompression

extension AppShell {
    /// gzip through swift-nio-extras' compressor (its own copy of zlib), run once per file at start
    /// on an in-memory channel: the app is about a quarter of its size on the wire, which a walker
    /// on a weak signal feels. Nil if anything about it fails (the file is then served plain).
    enum Gzip {
        static func compress(_ bytes: [UInt8]) -> [UInt8]? {
            let channel = EmbeddedChannel()
            defer { _ = try? channel.finish() }
            do {
                try channel.pipeline.syncOperations.addHandler(NIOHTTPRequestCompressor(encoding: .gzip))
                let head = HTTPRequestHead(version: .http1_1, method: .POST, uri: "/")
                try channel.writeOutbound(HTTPClientRequestPart.head(head))
                try channel.writeOutbound(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: bytes))))
                try channel.writeOutbound(HTTPClientRequestPart.end(nil))
                var out: [UInt8] = []
                while let part = try channel.readOutbound(as: HTTPClientRequestPart.self) {
                    if case .body(.byteBuffer(let buffer)) = part { out += buffer.readableBytesView }
                }
                return out.isEmpty ? nil : out
            } catch {
                return nil
            }
        }
    }
}
