import ArgumentParser
import Foundation
import SafeWalkCore
import SafeWalkMQTT

/// `safewalk circle …`: the signed-in user's circle, through its owner (contacts-store).
struct CircleGroupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "circle",
        abstract: "Follow people, mark SOS contacts, ask for and give check-ins (via contacts-store).",
        discussion: """
            Acts as the signed-in user: the broker login (--username/--password, or \
            SAFEWALK_MQTT_USERNAME/SAFEWALK_MQTT_PASSWORD) is the user. Each command publishes a \
            command on {user}/circle/cmd, waits for its answer on {user}/circle/result and prints \
            it: exit 0 when done, 1 when the circle owner refused it (the line says why) or when \
            nothing answered within --timeout, 64 for a usage error. See docs/CONTRACT.md, "The \
            circle".
            """,
        subcommands: [
            CircleFollowCommand.self, CircleAcceptCommand.self, CircleDenyCommand.self, CircleUnfollowCommand.self,
            CircleRemoveCommand.self, CircleSOSCommand.self, CircleUnSOSCommand.self, CircleAskCommand.self,
            CircleCheckInCommand.self, CircleHomeCommand.self, CircleAckCommand.self, CircleInboxCommand.self,
            CircleRevealCommand.self, CircleShowCommand.self,
        ])
}

/// What every `circle` subcommand takes besides its own arguments.
struct CircleOptions: ParsableArguments, Sendable {
    @Option(help: "How long to wait for the circle owner's answer.")
    var timeout = DurationValue(seconds: 10)
    @OptionGroup var broker: BrokerOptions

    /// The broker settings and the user they sign in as, which circle topics are under. Checked
    /// when the command runs, not when it is parsed, since the login may come from the
    /// environment; a missing one is still a usage error (exit 64), as in parsing.
    func signedIn(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (
        user: WalkerID, settings: BrokerSettings
    ) {
        let settings = try broker.settings(environment: environment)
        guard let username = settings.username else {
            throw ValidationError(
                "circle commands act as the signed-in user: give --username (or SAFEWALK_MQTT_USERNAME)")
        }
        guard let user = WalkerID(validating: username) else {
            throw ValidationError("'\(username)' is not a user's login: circle topics are under a walker id")
        }
        return (user, settings)
    }

    func client(_ bus: any MessageBus, user: WalkerID, prefix: String) -> CircleClient {
        CircleClient(bus: bus, user: user, prefix: prefix, timeout: timeout.seconds)
    }
}

/// Parsers for `circle`'s arguments, so a bad name is refused before anything is sent.
enum CircleArguments {
    /// The other user: trimmed (as the circle owner trims it), then a walker id, since every
    /// user's name is one. Letter case is left alone: the owner matches it to the account.
    static func user(_ text: String) throws -> WalkerID {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ValidationError("a user's name cannot be empty") }
        do {
            return try WalkerID(trimmed)
        } catch {
            throw ValidationError("'\(trimmed)' is not a user's name: \(error)")
        }
    }

    /// `on` or `off`.
    static func onOff(_ text: String) throws -> Bool {
        switch text.lowercased() {
        case "on": return true
        case "off": return false
        default: throw ValidationError("say on or off")
        }
    }
}

/// A `circle` subcommand that is one command and its one-line answer.
protocol CircleOneShot: AsyncParsableCommand {
    var options: CircleOptions { get }
    /// The command this invocation sends, with `id`.
    func command(id: String) -> CircleCommand
}

extension CircleOneShot {
    func run() async throws {
        let (user, settings) = try options.signedIn()
        let request = command(id: UUID().uuidString)
        let result = try await BrokerConnection.withClient(settings) { client in
            try await options.client(client, user: user, prefix: settings.prefix).send(request)
        }
        print(CircleText().answer(to: request, result))
        if !result.ok { throw ExitCode.failure }
    }
}

/// The other user, for the subcommands about one.
struct OtherUser: ParsableArguments, Sendable {
    @Argument(
        help: ArgumentHelp("The other user's name (spaces around it are ignored).", valueName: "user"),
        transform: CircleArguments.user)
    var user: WalkerID
}
