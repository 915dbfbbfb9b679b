import Foundation
import SafeWalkCore

/// Starts one of the five service executables against a test broker, with its own data directory.
public enum ServiceProcess {
    /// - Parameters:
    ///   - environment: extra `SAFEWALK_*` settings (short thresholds, channels, ...).
    ///   - dataDirectory: reuse one to test a restart; a fresh temporary one by default.
    ///   - launcher: a command the executable runs under (`qemu-x86_64 -plugin …` in the cost
    ///     benchmark); empty runs it directly. The process id is then the launcher's: the
    ///     emulator running the program, which signals reach as they would the program.
    public static func start(
        _ service: ServiceName, broker: MosquittoBroker? = nil, environment: [String: String] = [:],
        dataDirectory: URL? = nil, launcher: [String] = []
    ) throws -> ChildProcess {
        let data =
            dataDirectory
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("safewalk-\(service)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        var env = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("SAFEWALK_") && $0.key != "GEMINI_API_KEY"
        }
        env["SAFEWALK_DATA_DIR"] = data.path
        env["SAFEWALK_MQTT_PORT"] = broker.map { "\($0.port)" } ?? "1"
        // Stable per data directory, so a restarted service finds its persistent session again.
        env["SAFEWALK_MQTT_CLIENT_ID"] = "\(service)-\(data.lastPathComponent.suffix(8))"
        // Tests run many services at once: no fixed metrics ports unless a test asks for one.
        env["SAFEWALK_METRICS_PORT"] = "off"
        env.merge(environment) { _, new in new }
        let executable = try Executables.product(service.rawValue)
        let command = launcher + [executable.path]
        return try ChildProcess(
            command[0], Array(command.dropFirst()), environment: env,
            logFile: data.appendingPathComponent("\(service).log"))
    }
}
