import Foundation
import TestSupport

/// The oldest nats-server the cluster cases accept. Debian 12's 2.9.10 loses QoS 1 deliveries to
/// connected readers in a burst (docs/SCALING.md, "Which nats-server"), which would fail a case for
/// the engine's fault, not SafeWalk's; `scripts/install-nats.sh` installs 2.15.1.
enum NATSVersion {
    /// The version scripts/nats-server.requirements pins (the scripts read it there).
    static let minimum = [2, 15, 1]

    /// The version in `nats-server --version`'s answer ("nats-server: v2.15.1"), nil if none.
    static func parse(_ answer: String) -> [Int]? {
        guard let range = answer.range(of: #"v\d+\.\d+\.\d+"#, options: .regularExpression) else { return nil }
        return answer[range].dropFirst().split(separator: ".").compactMap { Int($0) }
    }

    static func isSupported(_ version: [Int]) -> Bool { version.lexicographicallyPrecedes(minimum) == false }

    /// Throws, saying what to install, unless `executable` is `minimum` or later.
    static func require(_ executable: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--version"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let answer = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let version = parse(answer), isSupported(version) else {
            throw HarnessError.processFailed(
                "\(executable) is \(answer.trimmingCharacters(in: .whitespacesAndNewlines)); the cluster cases need "
                    + "nats-server \(minimum.map(String.init).joined(separator: ".")) or later, as "
                    + "scripts/install-nats.sh installs it (docs/SCALING.md, \"Which nats-server\")")
        }
    }
}
