import Foundation
import TestSupport

/// A mosquitto for the benchmark. TestSupport's `MosquittoBroker` logs every packet
/// (`log_type all`), which would make the broker's own logging the bottleneck; this one uses
/// the production limits of `mosquitto/local.conf` (queue 100k, in-flight 100) with the queue
/// raised further so a 200,000-message burst can never be dropped, and logs only warnings.
final class BenchBroker: Sendable {
    let port: Int
    let directory: URL
    let process: ChildProcess

    init() async throws {
        port = try Loopback.freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("safewalk-bench-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("mosquitto.conf")
        var lines = [
            "listener \(port) 127.0.0.1", "allow_anonymous true", "persistence false",
            "max_queued_messages 1000000", "max_inflight_messages 100",
            "log_dest file \(directory.path)/mosquitto.log", "log_type error", "log_type warning",
        ]
        if getuid() == 0 { lines.append("user root") }
        try (lines.joined(separator: "\n") + "\n").write(to: config, atomically: true, encoding: .utf8)
        let mosquitto = try Executables.find("mosquitto", in: ["/usr/sbin", "/usr/bin", "/usr/local/sbin"])
        process = try ChildProcess(mosquitto.path, ["-c", config.path], logFile: directory.appendingPathComponent("stdout.log"))
        try await eventually("mosquitto on \(port)") { Loopback.isAccepting(port: port) }
    }

    /// Anything the broker complained about (dropped messages would show here).
    var log: String { (try? String(contentsOf: directory.appendingPathComponent("mosquitto.log"), encoding: .utf8)) ?? "" }

    func stop() async {
        process.signal(SIGTERM)
        _ = try? await process.waitForExit(within: 10)
        try? FileManager.default.removeItem(at: directory)
    }
}
