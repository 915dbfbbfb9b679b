import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The broker as production runs it with accounts (the repo's conf and ACL, the plugin initialised
/// by `mosquitto_ctrl dynsec init`), the real `broker-admin` executable logged in as the plugin's
/// admin, and a `web` client that sends it commands as `web` will.
final class AccountsStack: Sendable {
    static let adminPassword = "pw-broker-admin-test"
    static let serviceUsers = ["web", "watchdog", "location-ingest", "operator", SecuredBroker.observer]
    static func password(for user: String) -> String { "pw-\(user)" }

    let broker: MosquittoBroker
    let admin: ChildProcess
    let web: MQTTClient
    let results: MQTTSubscription
    let reports: MQTTSubscription

    private init(
        broker: MosquittoBroker, admin: ChildProcess, web: MQTTClient, results: MQTTSubscription,
        reports: MQTTSubscription
    ) {
        self.broker = broker
        self.admin = admin
        self.web = web
        self.results = results
        self.reports = reports
    }

    /// Starts everything and waits for `broker-admin` to say `online` (by then it has brought the
    /// plugin to its policy and subscribed).
    static func start() async throws -> AccountsStack {
        let broker = try await DynamicSecurityBroker.start(
            users: Dictionary(uniqueKeysWithValues: serviceUsers.map { ($0, password(for: $0)) }),
            adminPassword: adminPassword)
        let observer = try await broker.client(
            username: SecuredBroker.observer, password: password(for: SecuredBroker.observer))
        let status = try await observer.subscribe("safewalk/_service/broker-admin", qos: .atLeastOnce)
        let admin = try ServiceProcess.start(
            .brokerAdmin, broker: broker,
            environment: [
                "SAFEWALK_MQTT_USERNAME": DynamicSecurityBroker.adminUsername,
                "SAFEWALK_MQTT_PASSWORD": adminPassword, "SAFEWALK_LOG_LEVEL": "debug",
            ])
        do {
            let online = try await status.first(1, within: 30).map(\.string)
            guard online == ["online"] else { throw HarnessError.processFailed("broker-admin said \(online)") }
        } catch {
            admin.signal(SIGKILL)
            throw HarnessError.processFailed("broker-admin never came online: \(error)\n\(admin.output)")
        }
        await observer.shutdown()
        let web = try await broker.client(username: "web", password: password(for: "web"))
        return AccountsStack(
            broker: broker, admin: admin, web: web,
            results: try await web.subscribe("safewalk/_accounts/result", qos: .atLeastOnce),
            reports: try await web.subscribe("safewalk/_accounts/erased/broker-admin", qos: .atLeastOnce))
    }

    /// Sends a command as `web` and returns broker-admin's answer to it (answers to other ids,
    /// e.g. refused hostile commands sent before, are skipped).
    @discardableResult
    func run(
        _ op: AccountCommand.Operation, _ user: String, password: String? = nil, session: String? = nil,
        id: String = UUID().uuidString
    ) async throws -> AccountCommandResult {
        let command = AccountCommand(id: id, op: op, user: try WalkerID(user), password: password, session: session)
        try await send(try SafeWalkJSON.encode(command))
        return try await result(id: id)
    }

    /// Publishes raw bytes on `_accounts/command` as `web`.
    func send(_ payload: Data) async throws {
        try await web.publish("safewalk/_accounts/command", payload: payload, qos: .atLeastOnce)
    }

    /// The next answer with this id.
    func result(id: String) async throws -> AccountCommandResult {
        try await withTimeout(15, "the answer to \(id)") {
            for await message in self.results {
                let result = try SafeWalkJSON.decode(AccountCommandResult.self, from: message.payload)
                if result.id == id { return result }
            }
            throw HarnessError.timedOut("results ended")
        }
    }

    /// Asks broker-admin to erase `user` and returns its report.
    func erase(_ user: String, id: String = UUID().uuidString) async throws -> EraseReport {
        let request = EraseRequest(id: id, user: try WalkerID(user))
        try await web.publish("safewalk/_accounts/erase/broker-admin", payload: try SafeWalkJSON.encode(request))
        return try await withTimeout(15, "the erasure report \(id)") {
            for await message in self.reports {
                let report = try SafeWalkJSON.decode(EraseReport.self, from: message.payload)
                if report.id == id { return report }
            }
            throw HarnessError.timedOut("reports ended")
        }
    }

    /// A connected client logged in as `user`. Shut it down at the end.
    func login(_ user: String, _ password: String) async throws -> MQTTClient {
        try await broker.client("\(user)-\(UUID().uuidString.prefix(6))", username: user, password: password)
    }

    /// A service user of the password file.
    func service(_ user: String) async throws -> MQTTClient {
        try await login(user, Self.password(for: user))
    }

    /// Nil when `user` can log in with `password`; the error when the broker refuses.
    func refusal(_ user: String, _ password: String) async throws -> MQTTError? {
        try await broker.refusal(username: user, password: password)
    }

    /// Waits until `client` has lost its connection (and not regained it).
    func expectDisconnected(_ client: MQTTClient, within seconds: Double = 5) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while client.isConnected {
            guard ContinuousClock.now < deadline else { throw HarnessError.timedOut("a disconnect") }
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(1500))  // past the client's first reconnect attempt
        #expect(!client.isConnected, "reconnected after being kicked")
    }

    func shutdown() async {
        await web.shutdown()
        admin.signal(SIGTERM)
        _ = try? await admin.waitForExit(within: 10)
        await broker.shutdown()
    }
}

extension MQTTError {
    var isRefusal: Bool {
        if case .connectionRefused = self { return true }
        return false
    }
}
