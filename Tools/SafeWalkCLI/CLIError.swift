import Foundation

/// Everything the CLI reports as a failure, worded for the person at the terminal.
public enum CLIError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Nothing answered at host:port within the wait.
    case brokerUnreachable(host: String, port: Int, seconds: Double, detail: String?)
    /// The broker answered but refused the login.
    case credentialsRefused(host: String, port: Int, username: String?, reason: String)
    /// No service answered a request in time (e.g. contacts-store not running).
    case noAnswer(what: String, seconds: Double)
    /// A service answered with an error.
    case refused(String)
    /// A bad argument the parser could not catch (file contents, names, ...).
    case invalidInput(String)
    /// The SafeWalk repository (scripts/, mosquitto/) could not be found.
    case repositoryNotFound(searched: [String])
    /// Starting a program failed.
    case launchFailed(program: String, reason: String)

    public var description: String {
        switch self {
        case .brokerUnreachable(let host, let port, let seconds, let detail):
            "cannot reach the MQTT broker at \(host):\(port) within \(Self.seconds(seconds))"
                + (detail.map { " (\($0))" } ?? "")
                + ". Is it running? Start the stack with `safewalk up`, or set --host/--port "
                + "(SAFEWALK_MQTT_HOST/SAFEWALK_MQTT_PORT)."
        case .credentialsRefused(let host, let port, let username, let reason):
            "the MQTT broker at \(host):\(port) refused the login"
                + (username.map { " as '\($0)'" } ?? " without a username")
                + ": \(reason). Check --username/--password (SAFEWALK_MQTT_USERNAME/SAFEWALK_MQTT_PASSWORD)."
        case .noAnswer(let what, let seconds):
            "no answer from \(what) within \(Self.seconds(seconds)); is it running?"
        case .refused(let message): message
        case .invalidInput(let message): message
        case .repositoryNotFound(let searched):
            "cannot find the SafeWalk repository (scripts/up.sh) from \(searched.joined(separator: ", ")); "
                + "run from the repository or pass --repo (SAFEWALK_REPO)"
        case .launchFailed(let program, let reason): "cannot start \(program): \(reason)"
        }
    }

    public var errorDescription: String? { description }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
