import AsyncHTTPClient
import Logging
import SafeWalkService
import ServiceLifecycle

/// Builds companion-chat's parts for ``ServiceRunner``.
public enum CompanionChat {
    /// The shared HTTP client's owner first, the chat second: the group stops them in reverse,
    /// so the client outlives every model call.
    public static func services(_ context: ServiceContext) async throws -> [any Service] {
        let settings = try CompanionChatSettings(
            environment: context.configuration.environment, partition: context.configuration.partition)
        let logger = context.logger
        if settings.gemini.apiKey == nil {
            logger.notice("GEMINI_API_KEY is not set: free-text replies get canned answers")
        }
        logger.info(
            "companion model",
            metadata: [
                "endpoint": "\(settings.gemini.endpoint)", "timeout": "\(settings.gemini.timeout)",
                "historyTurns": "\(settings.historyTurns)",
                "partition": "\(settings.partition.map(\.description) ?? "all walkers")",
            ])
        var httpConfiguration = HTTPClient.Configuration()
        httpConfiguration.timeout.connect = .nanoseconds(settings.gemini.timeout.nanoseconds)
        httpConfiguration.redirectConfiguration = .disallow
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: httpConfiguration)
        do {
            let model = GeminiClient(
                http: http, configuration: settings.gemini, clock: ContinuousClock(), logger: logger)
            let chat = try await CompanionChatService.subscribe(
                bus: context.bus, prefix: context.configuration.topicPrefix, model: model,
                settings: settings, logger: logger)
            let prefix = context.configuration.topicPrefix
            // Last, so the group stops it first.
            let erasure = ErasureResponder(
                service: .companionChat, bus: context.bus, prefix: prefix,
                subscription: try await ErasureResponder.subscribe(
                    bus: context.bus, prefix: prefix, service: .companionChat),
                reporter: chat.reporter, logger: logger,
                partition: settings.partition, erase: chat.erase)
            return [HTTPClientOwner(client: http, logger: logger), chat, erasure]
        } catch {
            try? await http.shutdown()
            throw error
        }
    }
}
