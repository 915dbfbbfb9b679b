import Foundation

/// The project's own broker as production runs it with accounts (issue 17): `mosquitto/mosquitto.conf`
/// and `mosquitto/acl` (listener and paths rewritten, as ``SecuredBroker``), a password file for
/// the service users, and the dynamic-security plugin's file made by `mosquitto_ctrl dynsec init`
/// exactly as `compose/broker-entrypoint.sh` makes it on a first start: one admin client,
/// `broker-admin`, and the defaults `dynsec init` writes.
public enum DynamicSecurityBroker {
    /// The admin login's name (`SAFEWALK_MQTT_USERNAME` of `broker-admin`).
    public static let adminUsername = "broker-admin"
    /// The file name `mosquitto.conf` gives `plugin_opt_config_file`, in the data directory.
    public static let pluginFile = "dynamic-security.json"

    /// - Parameters:
    ///   - users: the password-file users (services, `operator`, `web`).
    ///   - adminPassword: the plugin admin's password, for `broker-admin`.
    public static func start(users: [String: String], adminPassword: String) async throws -> MosquittoBroker {
        let file = try await initialFile(admin: adminUsername, password: adminPassword)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        return try await SecuredBroker.start(users: users, dataFiles: [pluginFile: file])
    }

    /// The plugin's file as `mosquitto_ctrl dynsec init` makes it for the admin login `admin`, in
    /// a fresh temporary directory that the caller removes.
    public static func initialFile(admin: String, password: String) async throws -> URL {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dynsec-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let file = work.appendingPathComponent(pluginFile)
        let ctrl = try Executables.find("mosquitto_ctrl", in: ["/usr/bin", "/usr/local/bin"])
        let (status, output) = try await ChildProcess.run(ctrl, ["dynsec", "init", file.path, admin, password])
        guard status == 0 else {
            try? FileManager.default.removeItem(at: work)
            throw HarnessError.processFailed("mosquitto_ctrl dynsec init: \(output)")
        }
        return file
    }
}

extension DynamicSecurityBroker {
    /// The logins the plugin holds, as `mosquitto_ctrl dynsec listClients` prints them (one a
    /// line) when logged in to `broker` as the admin.
    public static func logins(on broker: MosquittoBroker, adminPassword: String) async throws -> Set<String> {
        let ctrl = try Executables.find("mosquitto_ctrl", in: ["/usr/bin", "/usr/local/bin"])
        let (status, output) = try await ChildProcess.run(
            ctrl,
            [
                "-h", "127.0.0.1", "-p", "\(broker.port)", "-u", adminUsername, "-P", adminPassword,
                "-i", "listClients-\(UUID().uuidString.prefix(6))", "dynsec", "listClients",
            ])
        guard status == 0 else { throw HarnessError.processFailed("mosquitto_ctrl dynsec listClients: \(output)") }
        // Its warning about the unencrypted connection comes in the same output; a login never
        // holds a space, so a line with one is not a login.
        return Set(output.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.contains(" ") })
    }
}
