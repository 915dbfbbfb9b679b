import AsyncHTTPClient
import Logging
import ServiceLifecycle

/// Owns the process's one `HTTPClient` and shuts it down on graceful shutdown. It is listed
/// before the chat service, so the group stops it only after the chat has finished its calls.
public struct HTTPClientOwner: Service {
    public let client: HTTPClient
    let logger: Logger

    public init(client: HTTPClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    public func run() async throws {
        try? await gracefulShutdown()
        do {
            try await client.shutdown()
        } catch {
            logger.warning("HTTP client shutdown failed", metadata: ["error": "\(error)"])
        }
    }
}
