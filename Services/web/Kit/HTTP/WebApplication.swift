import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import SafeWalkService
import ServiceLifecycle

/// Builds the HTTP side: the router over ``WebRoute`` and the Hummingbird application that serves
/// it, over HTTPS when ``WebSettings/tls`` names a certificate and key.
public enum WebApplication {
    /// At most this many connections at once; more wait in the listen backlog.
    public static let maxConnections = 1_000

    public static func router(
        accounts: Accounts, live: LivePages? = nil, push: WebPush? = nil, app: AppBridge? = nil, desk: Desk? = nil
    ) -> Router<WebRequestContext> {
        let router = Router(context: WebRequestContext.self)
        router.add(middleware: RejectionMiddleware(logger: accounts.logger))
        let files = StaticFiles(
            leafletDirectory: accounts.settings.live.tiles == nil ? nil : accounts.settings.live.leafletDirectory,
            logger: accounts.logger)
        let handlers = WebHandlers(accounts: accounts, live: live, files: files, push: push, app: app, desk: desk)
        for route in WebRoute.allCases {
            router.on(route.routerPath, method: route.method) { request, context in
                try await handlers.respond(to: route, request, context)
            }
        }
        // Not part of the API (docs/services/web.md): the page's files, and a clear 405 for a GET
        // on the button's address.
        router.get("/static/**") { request, context in try handlers.staticFile(request, context) }
        router.get(WebRoute.acknowledge.routerPath) { _, _ in handlers.acknowledgeByGet() }
        // The walker's app (issue 20): `/`, `/app/**`, `/sw.js`, `/app.webmanifest`.
        AppShell(
            directory: AppShell.locate(), tiles: files.hasLeaflet ? accounts.settings.live.tiles : nil,
            logger: accounts.logger
        ).register(on: router)
        return router
    }

    public static func make(
        accounts: Accounts, live: LivePages? = nil, push: WebPush? = nil, app: AppBridge? = nil, desk: Desk? = nil,
        services: [any Service] = [],
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) throws(ConfigurationError) -> Application<RouterResponder<WebRequestContext>> {
        let settings = accounts.settings
        // Small headers and an idle timeout: a client that opens connections and sends nothing
        // (or headers without end) holds little and not for long.
        let http1 = HTTP1Channel.Configuration(
            idleTimeout: .seconds(30),
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: 16 * 1024, maxHeaderListSize: 32 * 1024, maxHeaderFieldCount: 100))
        let server: HTTPServerBuilder =
            if let tls = settings.tls {
                try tlsServer(http1, files: tls)
            } else {
                .http1(configuration: http1)
            }
        return Application(
            router: router(accounts: accounts, live: live, push: push, app: app, desk: desk), server: server,
            configuration: ApplicationConfiguration(
                address: .hostname(settings.host, port: settings.port), serverName: nil,
                availableConnectionsDelegate: MaximumAvailableConnections(maxConnections)),
            services: services, onServerRunning: onServerRunning, logger: accounts.logger)
    }

    private static func tlsServer(_ http1: HTTP1Channel.Configuration, files: WebSettings.TLSFiles)
        throws(ConfigurationError) -> HTTPServerBuilder
    {
        do {
            let chain = try NIOSSLCertificate.fromPEMFile(files.certificate).map {
                NIOSSLCertificateSource.certificate($0)
            }
            let key = try NIOSSLPrivateKey(file: files.key, format: .pem)
            let tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
            return try .tls(.http1(configuration: http1), tlsConfiguration: tls)
        } catch {
            throw .invalid(
                name: "SAFEWALK_TLS_CERT", value: files.certificate,
                expected: "a PEM certificate chain, with its PEM key in SAFEWALK_TLS_KEY (\(error))")
        }
    }
}
