import ArgumentParser
import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import TestSupport

/// The floor under a service's instructions per fix (issue 22): what receiving the watchdog's
/// inputs costs when nothing is done with them. Two bare subscribers run under the same counter as
/// the stack, subscribed at QoS 1 to the watchdog's walker inputs (`{p}/+/position`, `reply`,
/// `action`, `presence`):
/// - `bare-c`: Mosquitto's own `mosquitto_sub`, libmosquitto in C, printing nothing (`-F '' -N`);
/// - `bare-swift`: `e2e-load-bench subscribe`, SafeWalkMQTT's client (every service's) taking
///   each batch from each subscription and dropping it.
/// Their difference is what the Swift client adds; the watchdog's figure beyond `bare-swift` is
/// what it does with the messages and what it publishes.
struct BareSubscribers {
    static let names = ["bare-c", "bare-swift"]

    /// The watchdog's walker inputs, as it subscribes to them with one partition.
    static let filters = [Topic.Kind.position, .reply, .action, .presence].map {
        TopicFilter.partitionInput($0, partition: nil, prefix: "safewalk").rawValue
    }

    let c: ChildProcess
    /// Prints a line once subscribed, which the cost run waits for.
    let swift: ChildProcess
    var children: [ChildProcess] { [c, swift] }

    init(counter: InstructionCounter, port: Int, directory: URL) throws {
        let mosquittoSub = try Executables.find("mosquitto_sub", in: ["/usr/bin", "/usr/local/bin"]).path
        let c =
            counter.launcher("bare-c") + [
                mosquittoSub, "-h", "127.0.0.1", "-p", "\(port)", "-i", "cost-bare-c", "-q", "1", "-F", "", "-N",
                "--quiet",
            ]
        let swift =
            counter.launcher("bare-swift") + [
                URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path, "subscribe", "--port", "\(port)",
                "--client-id", "cost-bare-swift",
            ]
        let filterArguments = Self.filters.flatMap { ["-t", $0] }
        let swiftFilters = Self.filters.flatMap { ["--filter", $0] }
        func launch(_ command: [String], _ name: String) throws -> ChildProcess {
            try ChildProcess(
                command[0], Array(command.dropFirst()), logFile: directory.appendingPathComponent("\(name).log"))
        }
        self.c = try launch(c + filterArguments, "bare-c")
        self.swift = try launch(swift + swiftFilters, "bare-swift")
    }

    func stop() async {
        for child in children {
            child.signal(SIGTERM)
            _ = try? await child.waitForExit(within: 10)
        }
    }
}

extension E2ELoadBench {
    /// A bare subscriber for the cost run's floor (``BareSubscribers``): connects, subscribes at
    /// QoS 1 and drops every batch until it is stopped.
    struct Subscribe: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A bare SafeWalkMQTT subscriber that drops what it receives (the cost run's floor).")

        @Option(help: "The broker's port on 127.0.0.1.") var port: Int
        @Option(help: "The MQTT client id.") var clientID = "bare-subscriber"
        @Option(help: "A topic filter (repeat for more).") var filter: [String]

        func run() async throws {
            var logger = Logger(label: "bare-subscriber")
            logger.logLevel = .error
            let client = try MQTTClient(
                configuration: MQTTConfiguration(port: port, clientID: clientID, cleanSession: true), logger: logger)
            try await client.connect()
            var subscriptions: [MQTTSubscription] = []
            for filter in filter { subscriptions.append(try await client.subscribe(filter, qos: .atLeastOnce)) }
            // Unbuffered: the output is a file, and the cost run waits for this line.
            FileHandle.standardOutput.write(Data("subscribed to \(filter.joined(separator: " "))\n".utf8))
            await withDiscardingTaskGroup { group in
                for subscription in subscriptions {
                    group.addTask { for await _ in subscription.batches {} }
                }
            }
        }
    }
}
