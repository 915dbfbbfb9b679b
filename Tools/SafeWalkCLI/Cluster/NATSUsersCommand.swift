import ArgumentParser
import Foundation
import SafeWalkBrokerPolicy
import SafeWalkCore

/// `safewalk nats-users`: the logins and rights of a NATS cluster, from `mosquitto/acl`
/// (``NATSAuthorization``), as an `authorization` block every node includes.
struct NATSUsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nats-users",
        abstract: "Print a NATS cluster's users, with the rights mosquitto/acl gives them.",
        discussion: """
            Every service user of the ACL gets the same topics as on Mosquitto, its password read \
            by the node from its environment ($WATCHDOG_MQTT_PASSWORD for watchdog, as compose \
            names them). Each walker in --walkers (lines of `id password`; # starts a comment) \
            gets the ACL's `pattern` rights with its id for %u. Write the output to the file every \
            node's configuration includes and reload the nodes (nats-server --signal reload=PID, \
            or SIGHUP): a walker added this way connects at once (docs/SCALING.md).
            """)

    @Option(help: "The ACL to translate (default: mosquitto/acl in the SafeWalk repository).")
    var acl: String?

    @Option(help: "A file of walkers' logins, one `id password` per line.")
    var walkers: String?

    @Option(help: "The SafeWalk repository (default: $SAFEWALK_REPO, else found from here).")
    var repo: String?

    func run() throws {
        let aclPath =
            try acl
            ?? RepositoryLocator.find(explicit: repo ?? ProcessInfo.processInfo.environment["SAFEWALK_REPO"])
            .appendingPathComponent("mosquitto/acl").path
        do {
            let rules = try BrokerACL(parsing: try String(contentsOfFile: aclPath, encoding: .utf8))
            let logins = try walkers.map { try WalkerLogins.read(String(contentsOfFile: $0, encoding: .utf8)) } ?? []
            print(try NATSAuthorization.block(acl: rules, walkers: logins), terminator: "")
        } catch let error as CLIError {
            throw error
        } catch let error as BrokerACL.ParseError {
            throw CLIError.invalidInput("\(aclPath): \(error)")
        } catch let error as NATSAuthorization.RenderError {
            throw CLIError.invalidInput(error.description)
        } catch {
            throw CLIError.invalidInput("cannot read \(error)")
        }
    }
}

/// The `--walkers` file of `safewalk nats-users`: one `id password` per line, `#` comments.
enum WalkerLogins {
    static func read(_ text: String) throws(CLIError) -> [NATSAuthorization.Walker] {
        var logins: [NATSAuthorization.Walker] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2, let id = WalkerID(validating: parts[0]) else {
                throw .invalidInput("walkers file line \(index + 1): `id password`, the id a walker id")
            }
            guard !logins.contains(where: { $0.id == id }) else {
                throw .invalidInput("walkers file line \(index + 1): \(id) is listed twice")
            }
            logins.append(NATSAuthorization.Walker(id: id, password: parts[1]))
        }
        return logins
    }
}
