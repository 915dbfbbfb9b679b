import Foundation
import SafeWalkCore
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Prometheus metrics and health over HTTP", .holdsResources)
struct MetricsEndpointTests {
    func get(_ url: URL) async throws -> (Int, String) {
        let (data, response) = try await URLSession.shared.data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test func aServiceExposesBrokerTrafficAndHealth() async throws {
        let broker = try await MosquittoBroker.start()
        let observer = try await broker.client()
        let status = try await observer.subscribe(Topic.serviceStatus(.contactsStore).name(), qos: .atLeastOnce)
        let port = try Loopback.freePort()
        let process = try ServiceProcess.start(
            .contactsStore, broker: broker,
            environment: ["SAFEWALK_METRICS_PORT": "\(port)"])
        #expect(try await status.first(1, within: 20).map(\.string) == ["online"])
        let base = URL(string: "http://127.0.0.1:\(port)")!
        try await eventually("metrics endpoint", within: 10) { Loopback.isAccepting(port: port) }

        let (healthCode, health) = try await get(base.appendingPathComponent("health"))
        #expect(healthCode == 200)
        #expect(health == "online\n")
        let (metricsCode, metrics) = try await get(base.appendingPathComponent("metrics"))
        #expect(metricsCode == 200)
        #expect(metrics.contains(#"safewalk_mqtt_connects_total{service="contacts-store"} 1"#), "\(metrics)")
        #expect(
            metrics.contains(#"safewalk_mqtt_messages_published_total{service="contacts-store",kind="serviceStatus"}"#),
            "\(metrics)")
        // Every subscription's buffer high-water mark, 0 while nothing has queued up.
        let contactsAdd = TopicFilter.every(.contactsAdd, prefix: "safewalk").rawValue
        #expect(
            metrics.contains(
                #"safewalk_mqtt_subscription_buffer_high_water_mark{service="contacts-store",filter="\#(contactsAdd)"} 0"#
            ),
            "\(metrics)")
        let (missingCode, _) = try await get(base.appendingPathComponent("nothing-here"))
        #expect(missingCode == 404)

        process.signal(SIGTERM)
        #expect(try await process.waitForExit() == 0)
        await observer.shutdown(); await broker.shutdown()
    }

    @Test func aTakenMetricsPortDoesNotStopTheService() async throws {
        let broker = try await MosquittoBroker.start()
        let observer = try await broker.client()
        let status = try await observer.subscribe(Topic.serviceStatus(.notifier).name(), qos: .atLeastOnce)
        // The broker's own port is certainly taken.
        let process = try ServiceProcess.start(
            .notifier, broker: broker,
            environment: ["SAFEWALK_METRICS_PORT": "\(broker.port)"])
        #expect(try await status.first(1, within: 20).map(\.string) == ["online"])
        try await eventually("the error to be logged", within: 10) {
            process.output.contains("metrics endpoint unavailable")
        }
        process.signal(SIGTERM)
        #expect(try await process.waitForExit() == 0)
        await observer.shutdown(); await broker.shutdown()
    }
}
