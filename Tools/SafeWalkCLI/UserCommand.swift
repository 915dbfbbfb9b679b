import ArgumentParser
import Foundation

/// `safewalk user add`: a broker login for a walker or a service.
struct UserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage broker users (the Mosquitto password file).",
        subcommands: [UserAddCommand.self])
}

struct UserAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a broker user, or change its password.",
        discussion: """
            Wraps scripts/add-user.sh (mosquitto_passwd). A walker's username is its walker id: \
            the same login serves its phone and its OwnTracks tracker, and the ACL lets it touch \
            only its own topics. The password comes from SAFEWALK_NEW_PASSWORD, or is generated \
            and printed once.
            """)

    @Argument(help: "A walker id ([A-Za-z0-9_-]{1,64}), or a service user with --service.")
    var name: String

    @Flag(help: "Add one of the service users named in mosquitto/acl.")
    var service = false

    @Option(help: "The password file (default: $SAFEWALK_PASSWORD_FILE or mosquitto/passwd in the repository).")
    var file: String?

    @Option(help: "The SafeWalk repository (default: $SAFEWALK_REPO, else found from here or from this executable).")
    var repo: String?

    func validate() throws {
        do {
            try UserNameRule.validate(name, service: service)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let root = try RepositoryLocator.find(explicit: repo ?? environment["SAFEWALK_REPO"])
        var arguments = [root.appendingPathComponent("scripts/add-user.sh").path, name]
        if service { arguments.append("--service") }
        if let file { arguments += ["--file", URL(fileURLWithPath: file).standardizedFileURL.path] }
        try ProcessExec.replace(with: "/bin/bash", arguments: arguments, environment: environment)
    }
}
