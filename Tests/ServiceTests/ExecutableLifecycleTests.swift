import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// Every executable: starts, connects, announces `online`, stops cleanly on SIGTERM and is
/// reported `offline` by its Last Will when it dies instead.
@Suite("The five service executables", .holdsResources)
struct ExecutableLifecycleTests {
    static let services: [ServiceName] = [.locationIngest, .watchdog, .companionChat, .notifier, .contactsStore]

    @Test(arguments: services)
    func startsAnnouncesReadyAndStopsCleanlyOnSIGTERM(service: ServiceName) async throws {
        let broker = try await MosquittoBroker.start()
        let observer = try await broker.client()
        let status = try await observer.subscribe(Topic.serviceStatus(service).name(), qos: .atLeastOnce)
        let process = try ServiceProcess.start(service, broker: broker)

        let online = try await status.first(1, within: 20)
        #expect(online.map(\.string) == ["online"], "\(process.output)")
        process.signal(SIGTERM)
        let code = try await process.waitForExit(within: 10)
        #expect(code == 0, "\(process.output)")
        #expect(try await status.first(1).map(\.string) == ["offline"])
        #expect(process.output.contains("ready"))

        await observer.shutdown(); await broker.shutdown()
    }

    @Test func lastWillReportsAServiceThatDiedOffline() async throws {
        let broker = try await MosquittoBroker.start()
        let observer = try await broker.client()
        let status = try await observer.subscribe(Topic.serviceStatus(.watchdog).name(), qos: .atLeastOnce)
        let process = try ServiceProcess.start(.watchdog, broker: broker)
        #expect(try await status.first(1, within: 20).map(\.string) == ["online"])
        process.signal(SIGKILL)
        _ = try await process.waitForExit()
        // Nothing disconnected cleanly: only the broker's Last Will can say this.
        #expect(try await status.first(1, within: 20).map(\.string) == ["offline"])
        await observer.shutdown(); await broker.shutdown()
    }

    @Test func badConfigurationExitsWithCode2AndSaysWhich() async throws {
        let process = try ServiceProcess.start(.watchdog, environment: ["SAFEWALK_NO_REPLY_AFTER": "soon"])
        #expect(try await process.waitForExit() == 2)
        #expect(process.output.contains("SAFEWALK_NO_REPLY_AFTER"))
    }

    @Test func refusedCredentialsExitWithCode3() async throws {
        let broker = try await MosquittoBroker.start(extraConfig: "allow_anonymous false\npassword_file /dev/null\n")
        let process = try ServiceProcess.start(
            .notifier, broker: broker, environment: ["SAFEWALK_MQTT_PASSWORD": "nope"])
        #expect(try await process.waitForExit(within: 20) == 3, "\(process.output)")
        #expect(process.output.contains("refused"))
        await broker.shutdown()
    }
}
