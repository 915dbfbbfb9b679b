import BrokerAdminKit
import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import TestSupport
import Testing

@Suite("broker-admin's service on an in-memory bus and plugin")
struct BrokerAdminServiceTests {
    let bus = InMemoryMessageBus()
    let plugin = FakePlugin.initialised()
    let logger = Logger(label: "broker-admin-test")

    func service() async throws -> (BrokerAdminService, RejectionReporter) {
        let reporter = RejectionReporter(service: .brokerAdmin, prefix: "safewalk", bus: bus, logger: logger)
        let service = BrokerAdminService(
            bus: bus, plugin: plugin, sweeper: RetainedSweeper(bus: bus, quiet: .milliseconds(50)), reporter: reporter,
            prefix: "safewalk", admin: "broker-admin", logger: logger,
            subscriptions: try await BrokerAdminService.subscribe(bus: bus, prefix: "safewalk"), now: { 1_760_000_000 })
        return (service, reporter)
    }

    func command(_ json: String, retained: Bool = false) -> MQTTMessage {
        MQTTMessage(topic: "safewalk/_accounts/command", string: json, retain: retained)
    }

    var results: [AccountCommandResult] {
        bus.published(matching: "safewalk/_accounts/result").compactMap {
            try? SafeWalkJSON.decode(AccountCommandResult.self, from: $0.payload)
        }
    }

    @Test func aCreatedWalkerIsAPluginClientAndTheAnswerSaysOK() async throws {
        let (service, _) = try await service()
        try await service.handleCommand(
            command(#"{"v":1,"id":"c1","op":"createWalker","user":"alice","password":"pw-alice-1"}"#))
        try await service.handleCommand(
            command(#"{"v":1,"id":"c2","op":"createWalker","user":"alice","password":"pw-alice-2"}"#))
        #expect(plugin.clients["alice"] == FakePlugin.Client(password: "pw-alice-1"))
        #expect(
            results == [
                AccountCommandResult(id: "c1", ok: true), AccountCommandResult(id: "c2", ok: false, error: .exists),
            ])
    }

    @Test func hostileCommandsChangeNothingAndAreCountedAndAnswered() async throws {
        let (service, reporter) = try await service()
        let before = plugin.clients
        for json in [
            #"{"v":1,"id":"h1","op":"createWalker","user":"watchdog","password":"pw-12345678"}"#,
            #"{"v":1,"id":"h2","op":"createWalker","user":"_x","password":"pw-12345678"}"#,
            #"{"v":1,"id":"h3","op":"createWalker","user":"mallory"}"#,
            #"{"v":1,"id":"h4","op":"grantAdmin","user":"mallory"}"#,
            "{not json",
        ] {
            try await service.handleCommand(command(json))
        }
        try await service.handleCommand(command(#"{"v":1,"id":"h5","op":"disable","user":"alice"}"#, retained: true))
        #expect(plugin.clients == before)
        #expect(plugin.batches.isEmpty)
        #expect(results.map(\.id) == ["h1", "h2", "h3", "h4", "h5"])
        #expect(results.allSatisfy { !$0.ok && $0.error == .refused })
        #expect(
            reporter.countsByReason == [
                "service_user": 1, "reserved_user": 1, "missing_password": 1, "invalid_value": 1, "malformed": 1,
                "retained": 1,
            ])
        // The operators' report names the reason, never the payload (which may hold a password).
        let reports = bus.published(matching: "safewalk/_rejected/broker-admin")
        #expect(reports.count == 6)
        #expect(reports.allSatisfy { !($0.string ?? "").contains("pw-") })
    }

    @Test func aPluginThatDoesNotAnswerIsABrokerError() async throws {
        let (service, _) = try await service()
        plugin.state.withLock { $0.answering = false }
        try await service.handleCommand(
            command(#"{"v":1,"id":"c1","op":"setPassword","user":"alice","password":"pw-alice-9"}"#))
        #expect(results == [AccountCommandResult(id: "c1", ok: false, error: .brokerError)])
    }

    @Test func theDeviceLoginNeedsAnEnabledWalker() async throws {
        let (service, _) = try await service()
        try await service.handleCommand(
            command(#"{"v":1,"id":"d1","op":"setDevicePassword","user":"alice","password":"pw-device-1"}"#))
        try await service.handleCommand(
            command(#"{"v":1,"id":"c1","op":"createWalker","user":"alice","password":"pw-alice-1"}"#))
        try await service.handleCommand(
            command(#"{"v":1,"id":"d2","op":"setDevicePassword","user":"alice","password":"pw-device-2"}"#))
        try await service.handleCommand(command(#"{"v":1,"id":"x1","op":"disable","user":"alice"}"#))
        try await service.handleCommand(
            command(#"{"v":1,"id":"d3","op":"setDevicePassword","user":"alice","password":"pw-device-3"}"#))
        #expect(
            results == [
                AccountCommandResult(id: "d1", ok: false, error: .notFound), AccountCommandResult(id: "c1", ok: true),
                AccountCommandResult(id: "d2", ok: true), AccountCommandResult(id: "x1", ok: true),
                AccountCommandResult(id: "d3", ok: false, error: .refused),
            ])
        #expect(
            plugin.clients["alice.owntracks"]
                == FakePlugin.Client(password: "pw-device-2", disabled: true, roles: ["device-alice"]))
        #expect(plugin.roles["device-alice"]?.count == 3)
    }

    @Test func erasureDeletesTheLoginsAndClearsTheDevicesRetainedMessages() async throws {
        let (service, _) = try await service()
        try await service.handleCommand(
            command(#"{"v":1,"id":"c1","op":"createWalker","user":"alice","password":"pw-alice-1"}"#))
        try await service.handleCommand(
            command(#"{"v":1,"id":"d1","op":"setDevicePassword","user":"alice","password":"pw-device-1"}"#))
        for (topic, payload) in [
            ("safewalk/alice/presence", "online"), ("owntracks/alice/phone", #"{"_type":"location"}"#),
            ("owntracks/alice/tablet", #"{"_type":"location"}"#), ("owntracks/bob/phone", #"{"_type":"location"}"#),
            ("safewalk/bob/presence", "online"),
        ] {
            try await bus.publish(topic, string: payload, retain: true)
        }
        let erase = MQTTMessage(
            topic: "safewalk/_accounts/erase/broker-admin", string: #"{"v":1,"id":"e1","user":"alice"}"#)
        try await service.handleErasure(erase)
        try await service.handleErasure(erase)  // again: nothing left, still fine
        #expect(plugin.clients["alice"] == nil)
        #expect(plugin.clients["alice.owntracks"] == nil)
        #expect(plugin.roles["device-alice"] == nil)
        let retained = try await bus.subscribe("#", qos: .atLeastOnce).first(2, within: 20).map(\.topic)
        #expect(retained.sorted() == ["owntracks/bob/phone", "safewalk/bob/presence"])
        let reports = bus.published(matching: "safewalk/_accounts/erased/broker-admin").compactMap {
            try? SafeWalkJSON.decode(EraseReport.self, from: $0.payload)
        }
        #expect(reports == Array(repeating: EraseReport(id: "e1", user: try WalkerID("alice"), ok: true), count: 2))
    }

    @Test func anErasureThePluginCannotDoIsAStoreError() async throws {
        let (service, _) = try await service()
        plugin.state.withLock { $0.answering = false }
        try await service.handleErasure(
            MQTTMessage(topic: "safewalk/_accounts/erase/broker-admin", string: #"{"v":1,"id":"e1","user":"alice"}"#))
        let reports = bus.published(matching: "safewalk/_accounts/erased/broker-admin").compactMap {
            try? SafeWalkJSON.decode(EraseReport.self, from: $0.payload)
        }
        #expect(reports == [EraseReport(id: "e1", user: try WalkerID("alice"), ok: false, error: .storeError)])
    }
}
