import ArgumentParser
import BenchSupport
import Foundation
import SafeWalkCore
import SafeWalkWebKit

/// `web-bench`: what one password verification costs (PBKDF2-HMAC-SHA512 at the service's rounds,
/// swift-crypto), beside the same derivation by OpenSSL through Python's `hashlib.pbkdf2_hmac`,
/// measured in the same run, alternating, so a busy machine slows both alike; then how many
/// verifications `PasswordWork` runs per second on every core. Run in release: swift-crypto's C
/// is built without optimisation in debug. BENCHMARKS.md and docs/services/web.md quote it.
///
///     swift run -c release web-bench [--rounds 210000] [--count 10] [--blocks 3]
@main
struct WebBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web-bench",
        abstract: "One password verification (PBKDF2-HMAC-SHA512) beside OpenSSL's, and its throughput on every core.")

    @Option(help: "PBKDF2 rounds (the service's default).")
    var rounds = PasswordHasher.defaultRounds

    @Option(help: "Verifications per block, for each implementation.")
    var count = 10

    @Option(help: "Blocks, alternating swift-crypto and OpenSSL.")
    var blocks = 3

    @Option(help: "The Python 3 that runs the OpenSSL baseline.")
    var python = "/usr/bin/python3"

    func validate() throws {
        guard rounds > 0, count > 0, blocks > 0 else {
            throw ValidationError("--rounds, --count and --blocks must be positive")
        }
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw ValidationError("no Python at \(python) for the OpenSSL baseline (apt-get install python3)")
        }
    }

    mutating func run() async throws {
        let hasher = PasswordHasher(rounds: rounds)
        let stored = hasher.hash(Self.password)
        var ours: [Double] = []
        var openSSL: [Double] = []
        for _ in 0..<blocks {
            ours += verifications(hasher, stored)
            openSSL += try await OpenSSLBaseline(python: python).derivations(rounds: rounds, count: count)
        }
        let swiftCrypto = SortedSamples(ours)
        let baseline = SortedSamples(openSSL)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let perSecond = try await throughput(hasher, stored, cores: cores)
        print(
            """
            PBKDF2-HMAC-SHA512, \(rounds) rounds, 16-byte salt, 64-byte key, \(blocks) blocks of \(count)
            swift-crypto (PasswordHasher.verify): \(swiftCrypto.millisecondsSummary)
            OpenSSL (python3 hashlib.pbkdf2_hmac), same run: \(baseline.millisecondsSummary)
            ratio of medians, swift-crypto / OpenSSL: \(format(swiftCrypto.percentile(50) / baseline.percentile(50)))
            on \(cores) cores through PasswordWork: \(format(perSecond)) verifications/s
            """)
    }

    static let password = "measure-me-1!"

    /// `count` verifications in a row, each timed, in seconds.
    func verifications(_ hasher: PasswordHasher, _ stored: PasswordHash) -> [Double] {
        (0..<count).map { _ in
            let start = ContinuousClock.now
            guard hasher.verify(Self.password, against: stored) else { fatalError("verification failed") }
            return (ContinuousClock.now - start).seconds
        }
    }

    /// `cores × count` verifications through `PasswordWork`, all queued at once.
    func throughput(_ hasher: PasswordHasher, _ stored: PasswordHash, cores: Int) async throws -> Double {
        let total = cores * count
        let work = PasswordWork(hasher: hasher, limit: total)
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<total { group.addTask { try await work.verify(Self.password, against: stored) } }
            for try await matched in group where !matched { fatalError("verification failed") }
        }
        return Double(total) / (ContinuousClock.now - start).seconds
    }

    func format(_ value: Double) -> String { String(format: "%.2f", value) }
}
