import ArgumentParser
import Foundation

/// `safewalk up`: runs `scripts/up.sh` from the repository (broker + five services, no Docker).
struct UpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "up",
        abstract: "Run the whole stack locally: Mosquitto on 127.0.0.1 and the five services.",
        discussion: """
            Replaces itself with the repository's scripts/up.sh, which builds the services, \
            starts a loopback-only Mosquitto (mosquitto/local.conf, no passwords) and the five \
            services, prefixes each log line with its program, and stops everything on Ctrl-C. \
            For the Docker stack use `docker compose -f compose/docker-compose.yml up` instead.
            """)

    @Option(help: "Broker port (default: $SAFEWALK_MQTT_PORT or 1883).")
    var port: Int?

    @Option(
        name: .customLong("data-dir"),
        help: "Where the broker and services keep their data (default: $SAFEWALK_DATA_DIR or ./data).")
    var dataDirectory: String?

    @Flag(help: "Build and run release binaries.")
    var release = false

    @Option(help: "The SafeWalk repository (default: $SAFEWALK_REPO, else found from here or from this executable).")
    var repo: String?

    func validate() throws {
        if let port, !(1...65_535).contains(port) { throw ValidationError("--port must be 1...65535") }
    }

    func run() throws {
        var environment = ProcessInfo.processInfo.environment
        let root = try RepositoryLocator.find(explicit: repo ?? environment["SAFEWALK_REPO"])
        if let port { environment["SAFEWALK_MQTT_PORT"] = String(port) }
        if let dataDirectory {
            environment["SAFEWALK_DATA_DIR"] = URL(fileURLWithPath: dataDirectory).standardizedFileURL.path
        }
        if release { environment["CONFIGURATION"] = "release" }
        try ProcessExec.replace(
            with: "/bin/bash", arguments: [root.appendingPathComponent("scripts/up.sh").path],
            environment: environment)
    }
}
