import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The whole product on one machine: the project's secured broker (its own mosquitto.conf and
/// ACL, every user with a password) and the five real service executables, each logged in as its
/// own user. The end-to-end stories and the hostile-input suite both run on it; what differs
/// between them (walkers, settings, metrics ports) is a parameter of `start`. With accounts
/// (`startWithAccounts`, AccountsServiceStack.swift) the broker also runs the dynamic-security
/// plugin, and `broker-admin` and `web` run beside the five.
public final class ServiceStack: Sendable {
    public static let services: [ServiceName] = [.locationIngest, .watchdog, .companionChat, .notifier, .contactsStore]

    /// Every test user's password: nothing on a test broker is secret, and a test can log in as
    /// any user it named (a walker, a service, `operator`) without carrying a table around.
    public static func password(for user: String) -> String { "pw-\(user)" }

    public let broker: MosquittoBroker
    /// The running process of each member (a member killed and restarted by
    /// ``killAndRestart(_:)`` has its new process here).
    public var processes: [ServiceName: ChildProcess] { running.withLock { $0 } }
    private let running: Mutex<[ServiceName: ChildProcess]>
    /// Each member's whole environment, so a restart runs it exactly as before.
    private let environments: [ServiceName: [String: String]]
    /// Logged in as the test-only ``SecuredBroker/observer``: reads every topic, writes none.
    public let observer: MQTTClient
    /// Each service's own `/metrics` port; empty unless `start` was asked to open them.
    public let metricsPorts: [ServiceName: Int]
    /// The ports services serve besides metrics: web's HTTP API, when the stack runs web.
    public let httpPorts: [ServiceName: Int]

    private init(
        broker: MosquittoBroker, processes: [ServiceName: ChildProcess], environments: [ServiceName: [String: String]],
        observer: MQTTClient, metricsPorts: [ServiceName: Int], httpPorts: [ServiceName: Int]
    ) {
        self.broker = broker
        self.running = Mutex(processes)
        self.environments = environments
        self.observer = observer
        self.metricsPorts = metricsPorts
        self.httpPorts = httpPorts
    }

    /// Starts the broker and the five services and waits until all five report `online` (and,
    /// with `openMetricsPorts`, until each one's metrics endpoint accepts connections).
    /// - Parameters:
    ///   - walkers: the walker users the broker knows besides `operator` and the services.
    ///   - environment: `SAFEWALK_*` settings for every service, over the stack's own (its MQTT
    ///     user and password).
    ///   - openMetricsPorts: give each service a free metrics port of its own, to scrape.
    public static func start(
        walkers: [String], environment: [String: String] = [:], openMetricsPorts: Bool = false
    ) async throws -> ServiceStack {
        let broker = try await SecuredBroker.start(
            users: logins(for: ["operator", SecuredBroker.observer] + services.map(\.rawValue) + walkers))
        return try await start(services, on: broker, environment: environment, openMetricsPorts: openMetricsPorts)
    }

    /// Each user with its test password, as a broker's password file wants them.
    static func logins(for users: [String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: users.map { ($0, password(for: $0)) })
    }

    /// Starts `members` on a running `broker`, each logged in as its own name, and waits until
    /// every one reports `online` (and its metrics endpoint and `httpPorts` accept connections).
    /// Stops the broker too if they do not come up.
    /// - Parameters:
    ///   - environment: settings for every member.
    ///   - settings: settings for one member only, over `environment`.
    ///   - httpPorts: ports a member serves besides metrics (web's API), waited for like them.
    static func start(
        _ members: [ServiceName], on broker: MosquittoBroker, environment: [String: String],
        settings: [ServiceName: [String: String]] = [:], httpPorts: [ServiceName: Int] = [:],
        openMetricsPorts: Bool
    ) async throws -> ServiceStack {
        var processes: [ServiceName: ChildProcess] = [:]
        var environments: [ServiceName: [String: String]] = [:]
        var observer: MQTTClient?
        _ = await ConcurrencyGate.stacks.enter()
        do {
            let operatorClient = try await broker.client(
                "observer-\(UUID().uuidString.prefix(6))", username: SecuredBroker.observer,
                password: password(for: SecuredBroker.observer))
            observer = operatorClient
            let statuses = try await operatorClient.subscribe("safewalk/_service/+", qos: .atLeastOnce)
            let taken = Set([broker.port] + httpPorts.values)
            let ports = openMetricsPorts ? try freePorts(for: members, besides: taken) : [:]
            for member in members {
                var own = [
                    "SAFEWALK_MQTT_USERNAME": member.rawValue,
                    "SAFEWALK_MQTT_PASSWORD": password(for: member.rawValue),
                ]
                if let port = ports[member] { own["SAFEWALK_METRICS_PORT"] = "\(port)" }
                environments[member] = own.merging(environment) { $1 }.merging(settings[member] ?? [:]) { $1 }
                processes[member] = try ServiceProcess.start(
                    member, broker: broker, environment: environments[member] ?? [:])
            }
            try await withTimeout(60, "\(members.map(\.rawValue)) online") {
                var online = Set<String>()
                for await message in statuses where message.string == "online" {
                    online.insert(message.topic)
                    if online.count == members.count { break }
                }
            }
            statuses.cancel()
            for (member, port) in ports {
                try await eventually("\(member) metrics endpoint", within: 20) { Loopback.isAccepting(port: port) }
            }
            for (member, port) in httpPorts {
                // Accepting is not enough: the port was free when chosen, and another test's server
                // may have taken it since. The member says when it is listening itself, or exits.
                try await eventually("\(member) listening on port \(port)", within: 20) {
                    processes[member]?.output.contains("HTTP listening") == true
                        || processes[member]?.exitStatusIfEnded() != nil
                }
                if let status = processes[member]?.exitStatusIfEnded() {
                    throw HarnessError.processFailed("\(member) exited (\(status)) instead of listening on \(port)")
                }
                try await eventually("\(member) on port \(port)", within: 20) { Loopback.isAccepting(port: port) }
            }
            return ServiceStack(
                broker: broker, processes: processes, environments: environments, observer: operatorClient,
                metricsPorts: ports, httpPorts: httpPorts)
        } catch {
            // Read the logs before stopping: a half-started stack must not outlive the test either.
            let logs = Self.logs(of: processes)
            await Self.stop(processes, observer: observer, broker: broker)
            await ConcurrencyGate.stacks.leave()
            throw HarnessError.processFailed("stack did not start: \(error)\n\(logs)")
        }
    }

    /// One free loopback port per member, none of them `taken` or another member's.
    private static func freePorts(for members: [ServiceName], besides taken: Set<Int>) throws -> [ServiceName: Int] {
        Dictionary(zip(members, try Loopback.freePorts(members.count, avoiding: taken))) { first, _ in first }
    }

    /// A client logged in as `user`; `role` only makes its client id readable in the broker's log.
    public func client(as user: String, role: String = "test", lastWill: MQTTMessage? = nil) async throws
        -> MQTTClient
    {
        try await broker.client(
            "\(user)-\(role)-\(UUID().uuidString.prefix(6))", username: user,
            password: Self.password(for: user), lastWill: lastWill)
    }

    /// `service`'s Prometheus endpoint, if `start` opened metrics ports.
    public func metricsURL(of service: ServiceName) -> URL? {
        metricsPorts[service].flatMap { URL(string: "http://127.0.0.1:\($0)/metrics") }
    }

    /// Where `service` keeps its files (its SQLite store, its log).
    public func dataDirectory(of service: ServiceName) -> URL? {
        processes[service]?.logFile.deletingLastPathComponent()
    }

    /// The services that have exited, with their status (in a healthy stack, none).
    public var exited: [ServiceName: Int32] {
        processes.compactMapValues { $0.exitStatusIfEnded() }
    }

    /// The end of what each service logged, for failure messages.
    public var logs: String { Self.logs(of: processes) }

    private static func logs(of processes: [ServiceName: ChildProcess]) -> String {
        processes.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "----- \($0.key) -----\n\($0.value.output.suffix(4000))" }.joined(separator: "\n")
    }

    /// SIGKILLs `member` (no clean stop: whatever it had not committed is gone) and starts it again
    /// on the same data directory with the same settings, as a supervisor would; returns once it
    /// reports `online` again (and its HTTP port, if it has one, accepts connections).
    public func killAndRestart(_ member: ServiceName) async throws {
        guard let old = processes[member], let environment = environments[member],
            let data = dataDirectory(of: member)
        else { throw HarnessError.notFound("\(member) is not in this stack") }
        let statuses = try await observer.subscribe("safewalk/_service/\(member.rawValue)", qos: .atLeastOnce)
        old.signal(SIGKILL)
        _ = try await old.waitForExit(within: 10)
        let new = try ServiceProcess.start(member, broker: broker, environment: environment, dataDirectory: data)
        running.withLock { $0[member] = new }
        // The retained `online` of the killed process comes first, then its Last Will's `offline`,
        // then the new process's `online`.
        try await withTimeout(60, "\(member) online again") {
            var sawOffline = false
            for await message in statuses {
                if message.string == "offline" { sawOffline = true }
                if sawOffline && message.string == "online" { break }
            }
        }
        statuses.cancel()
        if let port = httpPorts[member] {
            try await eventually("\(member) on port \(port)", within: 20) { Loopback.isAccepting(port: port) }
        }
    }

    /// SIGTERM to every service (a clean stop, as in production), then the observer and the broker.
    public func stop() async {
        await Self.stop(processes, observer: observer, broker: broker)
        await ConcurrencyGate.stacks.leave()
    }

    private static func stop(
        _ processes: [ServiceName: ChildProcess], observer: MQTTClient?, broker: MosquittoBroker
    ) async {
        for process in processes.values { process.signal(SIGTERM) }
        for process in processes.values { _ = try? await process.waitForExit(within: 15) }
        await observer?.shutdown()
        await broker.shutdown()
    }
}
