import ArgumentParser
import Foundation
import LocationIngestKit
import SafeWalkMQTT
import TestSupport

/// location-ingest through a real broker: `swift run -c release location-ingest-bench [--rounds 5]`.
/// Each round publishes the same kind of burst four times through one mosquitto: at QoS 1, as
/// devices publish, to a plain subscriber that only counts (the raw broker rate) and then to the
/// in-process location-ingest service (decode, validate, movement, one SQLite transaction per
/// batch, retained positions); then the same two at QoS 0, the broker's fastest path.
/// An unknown or misspelt option is an error (exit 64), never a silent default.
@main
struct LocationIngestBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "location-ingest-bench",
        abstract: "OwnTracks fixes through Mosquitto into location-ingest, beside a plain subscriber in the same round."
    )

    @Option(help: "Simulated walkers.") var walkers = 1_000
    @Option(help: "Fixes each walker sends.") var fixesPerWalker = 200
    @Option(help: "Publishing MQTT connections.") var publishers = 4
    @Option(help: "Rounds (raw phase, then ingest phase); more than one prints the median.") var rounds = 1

    func run() async throws {
        let ok = try await measure()
        print(ok ? "nothing lost: every fix received, accepted and stored" : "LOSS: counts above do not match")
        if !ok { throw ExitCode.failure }
    }

    func measure() async throws -> Bool {
        let generator = FixGenerator(walkers: walkers, fixesPerWalker: fixesPerWalker)
        let total = walkers * fixesPerWalker
        // Production logging (per-packet logging would be the bottleneck) and in-flight window; a
        // queue big enough that a 200,000-message burst is never dropped.
        let broker = try await MosquittoBroker.start(
            extraConfig: "max_queued_messages 1000000\nmax_inflight_messages 100",
            logPackets: false)
        guard let brokerPID = await broker.pid else { throw HarnessError.processFailed("mosquitto is not running") }
        print(
            "location-ingest-bench: \(total) OwnTracks fixes (QoS 1; the raw baseline also at QoS 0) from \(walkers) walkers, \(publishers) publisher connections, broker 127.0.0.1:\(broker.port)"
        )
        var ok = true
        var ratios: [Double] = []
        var cpuRatios: [Double] = []
        var qos0Ratios: [Double] = []
        for round in 1...rounds {
            let rawMessages = generator.messages(now: Date().timeIntervalSince1970, seed: UInt64(round))
            let rawThreads = threadCPUSecondsByName()
            let rawCPU = processCPUSeconds()
            let rawBrokerCPU = processCPUSeconds(pid: brokerPID)
            let raw = try await rawPhase(rawMessages, port: broker.port, publishers: publishers)
            let rawCPUPerFix = 1e6 * (processCPUSeconds() - rawCPU) / Double(total)
            let rawBrokerCPUPerFix = 1e6 * (processCPUSeconds(pid: brokerPID) - rawBrokerCPU) / Double(total)
            let dataDirectory = broker.directory.appendingPathComponent("ingest-\(round)")
            let ingestMessages = generator.messages(now: Date().timeIntervalSince1970, seed: UInt64(round))
            let ingestThreads = threadCPUSecondsByName()
            let ingestCPU = processCPUSeconds()
            let ingestBrokerCPU = processCPUSeconds(pid: brokerPID)
            let ingest = try await ingestPhase(
                ingestMessages, port: broker.port, publishers: publishers, dataDirectory: dataDirectory)
            let ingestCPUPerFix = 1e6 * (processCPUSeconds() - ingestCPU) / Double(total)
            let ingestBrokerCPUPerFix = 1e6 * (processCPUSeconds(pid: brokerPID) - ingestBrokerCPU) / Double(total)
            let afterThreads = threadCPUSecondsByName()
            // The same burst at QoS 0 (published and subscribed), the broker's fastest path:
            // location-ingest is held to 90 % of it (issue 22). Measured last, so the CPU figures
            // of the two phases above are theirs alone.
            let raw0 = try await rawPhase(
                generator.messages(now: Date().timeIntervalSince1970, seed: UInt64(round), qos: .atMostOnce),
                port: broker.port, publishers: publishers)
            // location-ingest fed the same QoS 0 burst: phones that do not wait for each PUBACK
            // offer about three times the rate, so this, not the QoS 1 phase, shows whether
            // ingest keeps up with the broker's fastest delivery.
            let ingest0 = try await ingestPhase(
                generator.messages(now: Date().timeIntervalSince1970, seed: UInt64(round), qos: .atMostOnce),
                port: broker.port, publishers: publishers,
                dataDirectory: broker.directory.appendingPathComponent("ingest-qos0-\(round)"))
            let rawRate = Double(raw.received) / raw.seconds
            let ingestRate = Double(ingest.stats.stored) / ingest.seconds
            let s = ingest.stats
            print(
                String(
                    format: "round %d  raw subscriber: %d/%d received in %.2f s = %.0f msgs/s (backlog high-water %d)",
                    round, raw.received, total, raw.seconds, rawRate, raw.highWater))
            print(
                String(
                    format:
                        "round %d  location-ingest: %d accepted, %d stored (%d rows in SQLite) in %.2f s = %.0f fixes/s; %d batches (mean %.0f), %d positions published, rejected %d, duplicates %d, out-of-order %d (backlog high-water %d)",
                    round, s.accepted, s.stored, ingest.rows, ingest.seconds, ingestRate, s.batches,
                    Double(s.received) / Double(max(s.batches, 1)), s.positionsPublished, s.rejected, s.duplicates,
                    s.outOfOrder, ingest.highWater))
            let raw0Rate = Double(raw0.received) / raw0.seconds
            print(
                String(
                    format:
                        "round %d  raw subscriber at QoS 0: %d/%d received in %.2f s = %.0f msgs/s (backlog high-water %d)",
                    round, raw0.received, total, raw0.seconds, raw0Rate, raw0.highWater))
            let ingest0Rate = Double(ingest0.stats.stored) / ingest0.seconds
            print(
                String(
                    format:
                        "round %d  location-ingest fed at QoS 0: %d accepted, %d stored (%d rows in SQLite) in %.2f s = %.0f fixes/s (backlog high-water %d)",
                    round, ingest0.stats.accepted, ingest0.stats.stored, ingest0.rows, ingest0.seconds, ingest0Rate,
                    ingest0.highWater))
            print(String(format: "round %d  ratio ingest/raw: %.1f %%", round, 100 * ingestRate / rawRate))
            print(String(format: "round %d  ratio ingest/raw at QoS 0: %.1f %%", round, 100 * ingest0Rate / raw0Rate))
            qos0Ratios.append(ingest0Rate / raw0Rate)
            if ingest0.stats.stored < total || raw0.received < total {
                print("round \(round)  QoS 0: the broker dropped fixes (counts above): not counted as a loss of ingest")
            }
            print(
                String(
                    format:
                        "round %d  CPU of this process (publishers + subscriber side) per fix: raw phase %.1f µs, ingest phase %.1f µs",
                    round, rawCPUPerFix, ingestCPUPerFix))
            print(
                String(
                    format: "round %d  CPU of the broker per fix: raw phase %.1f µs, ingest phase %.1f µs",
                    round, rawBrokerCPUPerFix, ingestBrokerCPUPerFix))
            print(
                "round \(round)  CPU by thread name, µs per fix: raw phase: \(threadCPUPerFix(from: rawThreads, to: ingestThreads, fixes: total))"
            )
            print(
                "round \(round)  CPU by thread name, µs per fix: ingest phase: \(threadCPUPerFix(from: ingestThreads, to: afterThreads, fixes: total))"
            )
            ratios.append(ingestRate / rawRate)
            // What the rates would be on an otherwise idle CPU-bound machine: CPU per fix of
            // everything in the path (publishers, broker, subscriber) in each phase.
            cpuRatios.append((rawCPUPerFix + rawBrokerCPUPerFix) / (ingestCPUPerFix + ingestBrokerCPUPerFix))
            ok = ok && raw.received == total && s.accepted == total && ingest.rows == total
        }
        if rounds > 1 {
            func summary(_ values: [Double]) -> String {
                let sorted = values.sorted()
                return String(
                    format: "median %.1f %% (min %.1f %%, max %.1f %%)", 100 * sorted[sorted.count / 2],
                    100 * sorted[0], 100 * sorted[sorted.count - 1])
            }
            print(
                "all \(rounds) rounds  ratio ingest/raw: \(summary(ratios)); CPU-per-fix ratio raw/ingest (publishers + broker + subscriber): \(summary(cpuRatios))"
            )
            print("all \(rounds) rounds  ratio ingest/raw at QoS 0: \(summary(qos0Ratios))")
        }
        let costs = try await stageCosts(
            generator.messages(now: Date().timeIntervalSince1970, seed: 99),
            directory: broker.directory.appendingPathComponent("stages"))
        print(
            String(
                format:
                    "stage costs without broker (CPU seconds, one thread each): decode+decide %.2f s = %.1f µs/fix; SQLite store %.2f s = %.1f µs/fix; later compaction (when quiet) %.2f s = %.1f µs/fix",
                costs.decide, 1e6 * costs.decide / Double(total), costs.store, 1e6 * costs.store / Double(total),
                costs.compact, 1e6 * costs.compact / Double(total)))
        let complaints = await broker.log.split(separator: "\n").filter { $0.contains("dropped") }
        print("broker dropped-message warnings: \(complaints.count)")
        await broker.shutdown()
        return ok && complaints.isEmpty
    }
}
