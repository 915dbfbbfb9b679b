import Foundation

/// A broker running the project's own `mosquitto/mosquitto.conf` and `mosquitto/acl`, with only
/// the listener and paths rewritten for a test, and the given users in its password file.
public enum SecuredBroker {
    /// Where `mosquitto.conf` loads the dynamic-security plugin from: the same on every
    /// architecture (compose/Dockerfile links it to Debian's file), so tests put this machine's in.
    public static let pluginPath = "/mosquitto/plugins/mosquitto_dynamic_security.so"

    /// A test-only login that reads every topic, so a test can see what happened on any topic.
    /// Only the test's copy of the ACL gets it (appended below the project's lines, which stay as
    /// they are); production has no such user: its `operator` reads no device input and no
    /// position (issue 21), which is exactly what tests used to observe through it.
    public static let observer = "test-observer"
    static let observerACL = """

        # ---- Test only (Tests/TestSupport/SecuredBroker.swift): never in production ----
        user \(observer)
        topic read #

        """

    /// The repository root, found from this source file's location.
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// - Parameter dataFiles: files copied into the broker's data directory (`/mosquitto/data/`
    ///   in production) before it starts, by name: the dynamic-security plugin's file.
    public static func start(users: [String: String], dataFiles: [String: URL] = [:]) async throws -> MosquittoBroker {
        let root = repositoryRoot
        let plugin = try dynamicSecurityPlugin()
        let passwords = FileManager.default.temporaryDirectory.appendingPathComponent(
            "passwd-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: passwords) }
        try await addUsers(users, to: passwords)
        return try await MosquittoBroker.startRetryingPort {
            try MosquittoBroker { port, directory in
                let config = directory.appendingPathComponent("config")
                let data = directory.appendingPathComponent("data")
                try FileManager.default.createDirectory(
                    at: config.appendingPathComponent("conf.d"), withIntermediateDirectories: true)
                try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
                for (name, file) in dataFiles {
                    try FileManager.default.copyItem(at: file, to: data.appendingPathComponent(name))
                }
                let acl = try String(contentsOf: root.appendingPathComponent("mosquitto/acl"), encoding: .utf8)
                try (acl + observerACL).write(
                    to: config.appendingPathComponent("acl"), atomically: true, encoding: .utf8)
                try FileManager.default.copyItem(at: passwords, to: config.appendingPathComponent("passwd"))
                let production = try String(
                    contentsOf: root.appendingPathComponent("mosquitto/mosquitto.conf"), encoding: .utf8)
                guard production.contains(pluginPath) else {
                    throw HarnessError.notFound("plugin \(pluginPath) in mosquitto/mosquitto.conf")
                }
                return
                    production
                    .replacingOccurrences(of: "listener 1883", with: "listener \(port) 127.0.0.1")
                    .replacingOccurrences(of: "/mosquitto/config/", with: config.path + "/")
                    .replacingOccurrences(of: "/mosquitto/data/", with: data.path + "/")
                    .replacingOccurrences(of: pluginPath, with: plugin)
                    .replacingOccurrences(of: "log_dest stdout", with: "log_dest file \(directory.path)/mosquitto.log")
            }
        }
    }

    /// The dynamic-security plugin installed on this machine. Debian puts it in its multiarch
    /// directory, `/usr/lib/<triplet>/`, which differs per architecture; other builds in `/usr/lib/`.
    public static func dynamicSecurityPlugin() throws -> String {
        let lib = "/usr/lib"
        let name = "mosquitto_dynamic_security.so"
        let triplets = (try? FileManager.default.contentsOfDirectory(atPath: lib)) ?? []
        let candidates = triplets.sorted().map { "\(lib)/\($0)/\(name)" } + ["\(lib)/\(name)"]
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw HarnessError.notFound(
                "the dynamic-security plugin, \(name), in \(lib)/*/ or \(lib)/ (apt-get install mosquitto)")
        }
        return found
    }

    /// Writes a mosquitto password file with the project's own tool (`scripts/add-user.sh`).
    static func addUsers(_ users: [String: String], to file: URL) async throws {
        for (name, password) in users.sorted(by: { $0.key < $1.key }) {
            let service = [
                "location-ingest", "watchdog", "companion-chat", "notifier", "contacts-store",
                "channel-example", "operator", "web",
            ].contains(name)  // the test observer is added like a walker: it is no service of ours
            let environment = ProcessInfo.processInfo.environment.merging(["SAFEWALK_NEW_PASSWORD": password]) { $1 }
            let (status, output) = try await ChildProcess.run(
                URL(fileURLWithPath: "/bin/bash"),
                [repositoryRoot.appendingPathComponent("scripts/add-user.sh").path, name, "--file", file.path]
                    + [service ? "--service" : "--walker"],
                environment: environment)
            guard status == 0 else { throw HarnessError.processFailed("add-user.sh \(name): \(output)") }
        }
    }
}
