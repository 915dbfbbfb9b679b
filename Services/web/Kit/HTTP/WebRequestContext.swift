import Hummingbird
import NIOCore

/// Hummingbird's request context plus the connection's peer address (for the per-address
/// limits; see ``ClientAddress``).
public struct WebRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer's IP address, or nil for a Unix socket.
    public let peer: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress?.ipAddress
    }

    /// Hummingbird's own decoding limit, should anything decode a body without ``JSONBody``.
    public var maxUploadSize: Int { JSONBody.defaultLimit }
}
