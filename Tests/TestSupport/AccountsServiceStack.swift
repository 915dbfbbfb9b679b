import Foundation
import SafeWalkCore

/// The stack as production runs it with accounts (issue 17): the broker with the
/// dynamic-security plugin (``DynamicSecurityBroker``), `broker-admin` holding the plugin's admin
/// login, `web` serving the HTTP API on a free loopback port, and the five services. No walker is
/// in the password file: walkers sign up over HTTP, and their logins live in the plugin.
extension ServiceStack {
    /// What runs besides the five services when there are accounts, in the order they start.
    public static let accountServices: [ServiceName] = [.brokerAdmin, .web]

    /// Starts the accounts stack and waits until every member is `online` and web accepts
    /// connections. Every member logs in as its own name with ``password(for:)`` (broker-admin as
    /// the plugin's admin, so that is the admin's password).
    /// - Parameters:
    ///   - services: which of the five run too (the hostile HTTP suite needs none of them).
    ///   - environment: settings for every member.
    ///   - webSettings: web's own, over the stack's: the public broker is this broker over plain
    ///     MQTT (so an OwnTracks configuration connects here), and 127.0.0.1 is a trusted proxy,
    ///     so a test can speak for many client addresses with `X-Forwarded-For` (``WebClient``).
    public static func startWithAccounts(
        services: [ServiceName] = services, environment: [String: String] = [:],
        webSettings: [String: String] = [:], openMetricsPorts: Bool = false
    ) async throws -> ServiceStack {
        // web's port is chosen free, but another test may take it before web binds it: then web
        // exits with "Address already in use" and the whole stack starts again on fresh ports.
        for attempt in 1...3 {
            do {
                return try await startWithAccountsOnce(
                    services: services, environment: environment, webSettings: webSettings,
                    openMetricsPorts: openMetricsPorts)
            } catch HarnessError.processFailed(let why) where why.contains("Address already in use") && attempt < 3 {
                continue
            }
        }
        throw HarnessError.timedOut("a free port for web")
    }

    private static func startWithAccountsOnce(
        services: [ServiceName], environment: [String: String], webSettings: [String: String],
        openMetricsPorts: Bool
    ) async throws -> ServiceStack {
        let broker = try await DynamicSecurityBroker.start(
            users: logins(
                for: ["operator", SecuredBroker.observer, ServiceName.web.rawValue] + services.map(\.rawValue)),
            adminPassword: password(for: DynamicSecurityBroker.adminUsername))
        let httpPort = try Loopback.freePorts(1, avoiding: [broker.port])[0]
        let web = [
            "SAFEWALK_HTTP_PORT": "\(httpPort)", "SAFEWALK_TRUSTED_PROXY": "127.0.0.1",
            "SAFEWALK_PUBLIC_MQTT_HOST": "127.0.0.1", "SAFEWALK_PUBLIC_MQTT_PORT": "\(broker.port)",
            "SAFEWALK_PUBLIC_MQTT_TLS": "false",
        ].merging(webSettings) { $1 }
        // The stack's public address is its web: links in texts (the notifier) and the URLs the SMS
        // gateway signs (web) name it.
        let environment = ["SAFEWALK_PUBLIC_URL": "http://127.0.0.1:\(httpPort)"].merging(environment) { $1 }
        return try await start(
            accountServices + services, on: broker, environment: environment, settings: [.web: web],
            httpPorts: [.web: httpPort], openMetricsPorts: openMetricsPorts)
    }

    /// Runs `story` on a fresh accounts stack and stops it afterwards, whatever happened; a
    /// story that throws fails with what the services logged.
    public static func withAccounts(
        services: [ServiceName] = services, environment: [String: String] = [:],
        webSettings: [String: String] = [:], openMetricsPorts: Bool = false,
        _ story: (ServiceStack) async throws -> Void
    ) async throws {
        let stack = try await startWithAccounts(
            services: services, environment: environment, webSettings: webSettings, openMetricsPorts: openMetricsPorts)
        do {
            try await story(stack)
        } catch {
            let logs = stack.logs
            await stack.stop()
            throw HarnessError.processFailed("\(error)\n\(logs)")
        }
        await stack.stop()
    }

    /// `SAFEWALK_PUBLIC_URL` of this stack: web on its loopback port.
    public var publicURL: String { "http://127.0.0.1:\(httpPorts[.web] ?? 0)" }

    /// A client of web's API, speaking for `address` (a fresh one by default).
    public func web(from address: String = WebClient.someAddress()) -> WebClient {
        WebClient(port: httpPorts[.web] ?? 0, address: address)
    }

    /// The logins the dynamic-security plugin holds now (walkers, devices, the admin).
    public func pluginLogins() async throws -> Set<String> {
        try await DynamicSecurityBroker.logins(
            on: broker, adminPassword: Self.password(for: DynamicSecurityBroker.adminUsername))
    }
}
