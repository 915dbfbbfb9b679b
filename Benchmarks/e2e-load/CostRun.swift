import Foundation
import Logging
import SafeWalkCore
import TestSupport

/// Instructions per fix for each service and for the broker (issue 22), counted by QEMU's
/// instruction-counting plugin (``InstructionCounter``).
///
/// Mosquitto and the five release executables run under the counter. After the set-up (two
/// contacts per walker through contacts-store) the stack rests; the counts are read, the stack
/// rests `idle` seconds more and they are read again (what the stack spends doing nothing: timers,
/// keep-alives); then the fixed mix runs and, once everything it caused has been delivered and the
/// stack rests again, they are read a third time. Per fix = (third − second) / fixes published.
///
/// The mix (``LoadPlan``): `walkers` walkers each `start` (spread over one check-in interval), send
/// a fix every 5 s at QoS 1 and answer every companion check-in; `silent` of them go silent and
/// escalate (`noReply`), which texts their two contacts through the notifier and the fake Twilio;
/// at the end every other walker `stop`s. No observer is connected during the mix: the broker's
/// count is the traffic of phones and services only.
enum CostRun {
    struct Reading: Sendable {
        var at: Double
        var instructions: [String: Int]
        var broker: BrokerCounters
    }

    struct Result: Sendable {
        var plan: LoadPlan
        var rest: Reading
        var afterIdle: Reading
        var afterMix: Reading
        var fixes: Int
        var texts: Int
    }

    static let processes = ["mosquitto"] + Cluster.services.map(\.rawValue)

    /// `floor`: also run ``BareSubscribers`` (which adds their deliveries to the broker's count).
    static func execute(plan: LoadPlan, idle: Double, floor: Bool = false, logger: Logger) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("safewalk-cost-\(UUID().uuidString.prefix(8))")
        let counter = try InstructionCounter(directory: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = try await Cluster(thresholds: plan.thresholds, launcher: counter.launcher)
        let port = cluster.nodes[0].port
        say("broker 127.0.0.1:\(port) and the five services under QEMU's instruction counter (\(directory.path))")
        // A clean session that leaves before the mix: the broker queues nothing for it afterwards.
        let observer = try await Observer(node: cluster.nodes[0], logger: logger, persistent: false)
        let fleet = try await Fleet(plan: plan, endpoint: cluster.endpoint(home:), logger: logger)
        let started = epochNow()
        try await cluster.startAll()
        for instance in cluster.instances { try await observer.waitOnline(instance, since: started - 1, within: 300) }
        say(String(format: "five services online in %.1f s", epochNow() - started))
        await fleet.addContacts()
        try await eventually("contacts added", within: 300) {
            observer.snapshot.contactResults >= plan.walkers * plan.contacts
        }
        await observer.shutdown()
        let floors = floor ? try BareSubscribers(counter: counter, port: port, directory: directory) : nil
        if let floors {
            try await eventually("the bare Swift subscriber subscribed", within: 60) {
                floors.swift.output.contains("subscribed")
            }
        }
        let names = processes + (floor ? BareSubscribers.names : [])

        let rest = try await read(counter, names, port: port, logger: logger)
        try await Task.sleep(for: .seconds(idle))
        let afterIdle = try await read(counter, names, port: port, logger: logger)
        say("mix: \(plan.walkers) walkers, \(plan.silent) go silent; " + plan.thresholds.description)
        let t0 = epochNow() + 1
        let w0 = t0 + plan.ramp
        await fleet.run(start: t0, windowStart: w0, end: w0 + plan.window)
        await fleet.stopActive()
        try await eventually("every silent walker's contacts texted and every fix stored", within: plan.drain) {
            try await delivered(plan, cluster: cluster, fixes: fleet.ackedTotal)
        }
        let afterMix = try await read(counter, names, port: port, logger: logger)
        await floors?.stop()
        let texts = try await cluster.gateway.stats().accepted.values.reduce(0, +)
        let fixes = fleet.ackedTotal
        await fleet.shutdown()
        await cluster.shutdown(keep: false)
        return Result(plan: plan, rest: rest, afterIdle: afterIdle, afterMix: afterMix, fixes: fixes, texts: texts)
    }

    /// Counts once the stack has rested 3 s: the plugin rewrites its files every 100 ms, the
    /// broker its `$SYS` counters every 2 s.
    static func read(_ counter: InstructionCounter, _ names: [String], port: Int, logger: Logger) async throws
        -> Reading
    {
        try await Task.sleep(for: .seconds(3))
        var instructions: [String: Int] = [:]
        for name in names {
            guard let count = counter.instructions(name) else { throw BenchError.failed("no count from \(name)") }
            instructions[name] = count
        }
        let broker = try await BrokerCounters.read(port: port, logger: logger)
        return Reading(at: epochNow(), instructions: instructions, broker: broker)
    }

    /// Every silent walker's contacts texted, and every acknowledged fix in location-ingest's SQLite.
    static func delivered(_ plan: LoadPlan, cluster: Cluster, fixes: Int) async throws -> Bool {
        guard IngestDatabase.count(cluster.databaseDirectory(.locationIngest)) >= fixes else { return false }
        let accepted = try await cluster.gateway.stats().accepted
        for n in 0..<plan.walkers where plan.silenceOffset(of: n) != nil {
            for k in 0..<plan.contacts
            where accepted[LoadPlan.phone(walker: n, contact: k, contacts: plan.contacts).normalised] == nil {
                return false
            }
        }
        return true
    }
}

extension CostRun.Result {
    /// Whether the run counted ``BareSubscribers`` (`cost --floor`).
    var withFloor: Bool { BareSubscribers.names.allSatisfy { afterMix.instructions[$0] != nil } }

    func perFix(_ name: String) -> Double {
        Double((afterMix.instructions[name] ?? 0) - (afterIdle.instructions[name] ?? 0)) / Double(fixes)
    }

    /// What the same process spends at rest over as long as the mix took, per fix.
    func idlePerFix(_ name: String) -> Double {
        let perSecond =
            Double((afterIdle.instructions[name] ?? 0) - (rest.instructions[name] ?? 0)) / (afterIdle.at - rest.at)
        return perSecond * (afterMix.at - afterIdle.at) / Double(fixes)
    }

    /// PUBLISH packets the broker received plus those it sent during the mix, per fix.
    var brokerMessagesPerFix: Double {
        let received = afterMix.broker.received - afterIdle.broker.received
        let sent = afterMix.broker.sent - afterIdle.broker.sent
        return (received + sent) / Double(fixes)
    }

    /// The table, copied into BENCHMARKS.md as printed.
    var report: String {
        let broker = perFix("mosquitto")
        var lines = [
            f(
                "cost: %d walkers (%d silent), %d fixes, %d texts, mix %.0f s; broker messages per fix %.2f (in %.2f, out %.2f)",
                plan.walkers, plan.silent, fixes, texts, afterMix.at - afterIdle.at, brokerMessagesPerFix,
                (afterMix.broker.received - afterIdle.broker.received) / Double(fixes),
                (afterMix.broker.sent - afterIdle.broker.sent) / Double(fixes)),
            "| process | instructions per fix | × broker | of which at rest |",
            "|---|---|---|---|",
        ]
        func line(_ label: String, _ name: String) -> String {
            "| \(label) | " + f("%.0f | %.2f | %.0f |", perFix(name), perFix(name) / broker, idlePerFix(name))
        }
        for name in ["mosquitto"] + Cluster.services.map(\.rawValue) { lines.append(line(name, name)) }
        let services = Cluster.services.map { perFix($0.rawValue) }.reduce(0, +)
        let servicesIdle = Cluster.services.map { idlePerFix($0.rawValue) }.reduce(0, +)
        lines.append("| five services | " + f("%.0f | %.2f | %.0f |", services, services / broker, servicesIdle))
        guard withFloor else { return lines.joined(separator: "\n") }
        // The floor (BareSubscribers): the watchdog's inputs received and dropped.
        lines.append(line("floor: mosquitto_sub (C) of the watchdog's inputs", "bare-c"))
        lines.append(line("floor: SafeWalkMQTT subscriber of the watchdog's inputs", "bare-swift"))
        return lines.joined(separator: "\n")
    }
}
