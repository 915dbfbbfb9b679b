import ArgumentParser
import Foundation
import SafeWalkCore

// The `circle` subcommands: each says which command it sends; `CircleOneShot` sends it and
// prints the answer. `inbox` and `show` print more than one line.

struct CircleFollowCommand: CircleOneShot {
    static let configuration = CommandConfiguration(
        commandName: "follow", abstract: "Ask USER to let you follow them; they accept or deny.")
    @OptionGroup var other: OtherUser
    @OptionGroup var options: CircleOptions
    func command(id: String) -> CircleCommand { CircleCommand(id: id, op: .follow, user: other.user.rawValue) }
}

struct CircleAcceptCommand: CircleOneShot {
    static let configuration = CommandConfiguration(
        commandName: "accept", abstract: "Let USER, who asked, follow you.")
    @OptionGroup var other: OtherUser
    @OptionGroup var options: CircleOptions
    func command(id: String) -> CircleCommand { CircleCommand(id: id, op: .accept, user: other.user.rawValue) }
}

struct CircleDenyCommand: CircleOneShot {
    static let configuration = CommandConfiguration(
        commandName: "deny", abstract: "Refuse USER's request to follow you.")
    @OptionGroup var other: OtherUser
    @OptionGroup var options: CircleOptions
    func command(id: String) -> CircleCommand { CircleCommand(id: id, op: .deny, user: other.user.rawValue) }
}

struct CircleUnfollowCommand: CircleOneShot {
    static let configuration = CommandConfiguration(
        commandName: "unfollow", abstract: "Stop following USER (or withdraw your request).")
    @OptionGroup var other: OtherUser
    @OptionGroup var options: CircleOptions
    func command(id: String) -> CircleCommand { CircleCommand(id: id, op: .unfollow, user: other.user.rawValue) }
}

struct CircleRemoveCommand: CircleOneShot {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Stop USER following you (and any SOS mark with it).")
    @OptionGroup var other: OtherUser
    @OptionGroup var options: CircleOptions
    func command(id: String) -> CircleCommand {
        CircleCommand(id: id, op: .removeFollower, user: other.user.rawValue)
    }
}

struct CircleSOSCommand: CircleOneShot {
    static let configuration = CommandConfiguration(
        commandName: "sos", abstract: "Make USER, whom you follow, an SOS contact: your alerts reach them in the app.")
    @OptionGroup var other: OtherUser
    @OptionGroup var options: CircleOptions
    func command(id: String) -> CircleCommand { CircleCommand(id: id, op: .sos, user: other.user.rawValue) }
}

struct CircleUnSOSCommand: CircleOneShot {
    static let configuration = CommandConfiguration(
        commandName: "unsos", abstract: "Take the SOS mark off USER.")
    @OptionGroup var other: OtherUser
    @OptionGroup var options: CircleOptions
    func command(id: String) -> CircleCommand { CircleCommand(id: id, op: .unsos, user: other.user.rawValue) }
}

struct CircleAskCommand: CircleOneShot {
    static let configuration = CommandConfiguration(
        commandName: "ask", abstract: "Ask USER (default: everyone you follow) to check in.")
    @Argument(
        help: ArgumentHelp("Whom to ask (default: everyone you follow).", valueName: "user"),
        transform: CircleArguments.user)
    var user: WalkerID?
    @OptionGroup var options: CircleOptions
    func command(id: String) -> CircleCommand { CircleCommand(id: id, op: .checkInRequest, user: user?.rawValue) }
}

struct CircleCheckInCommand: CircleOneShot {
    static let configuration = CommandConfiguration(
        commandName: "checkin", abstract: "Check in safe: answers every open request; all your followers see it.")
    @OptionGroup var options: CircleOptions
    func command(id: String) -> CircleCommand { CircleCommand(id: id, op: .checkIn) }
}

struct CircleHomeCommand: CircleOneShot {
    static let configuration = CommandConfiguration(
        commandName: "home", abstract: "Say you are home safe: your followers see it until it expires.")
    @OptionGroup var options: CircleOptions
    func command(id: String) -> CircleCommand { CircleCommand(id: id, op: .homeSafe) }
}

struct CircleAckCommand: CircleOneShot {
    static let configuration = CommandConfiguration(
        commandName: "ack", abstract: "Say \"I'm on it\" for USER's open alert (you are their SOS contact).")
    @OptionGroup var other: OtherUser
    @OptionGroup var options: CircleOptions
    func command(id: String) -> CircleCommand { CircleCommand(id: id, op: .ack, user: other.user.rawValue) }
}

struct CircleRevealCommand: CircleOneShot {
    static let configuration = CommandConfiguration(
        commandName: "reveal",
        abstract: "Whether an SOS contact whose check-in request you miss sees your last known position.")
    @Argument(
        help: ArgumentHelp("on or off (off unless you turn it on).", valueName: "on|off"),
        transform: CircleArguments.onOff)
    var on: Bool
    @OptionGroup var options: CircleOptions
    func command(id: String) -> CircleCommand { CircleCommand(id: id, op: .revealOnMissedCheckIn, on: on) }
}

struct CircleInboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inbox",
        abstract: "Print your inbox again: the events the circle owner kept for you, oldest first.",
        discussion: "Prints each event that comes back on {user}/inbox, then how many there are.")
    @Option(help: "How long to wait for the events after the answer.")
    var wait = DurationValue(seconds: 3)
    @OptionGroup var options: CircleOptions

    func run() async throws {
        let (user, settings) = try options.signedIn()
        let command = CircleCommand(id: UUID().uuidString, op: .inbox)
        let (result, events) = try await BrokerConnection.withClient(settings) { client in
            try await options.client(client, user: user, prefix: settings.prefix)
                .inbox(id: command.id, settle: wait.seconds)
        }
        let text = CircleText()
        for event in events { print(text.event(event)) }
        print(text.answer(to: command, result))
        guard result.ok else { throw ExitCode.failure }
        if let count = result.count, events.count < count {
            print("(\(count - events.count) more did not arrive within \(CLIError.seconds(wait.seconds)))")
        }
    }
}

struct CircleShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print your circle (the retained {user}/circle).",
        discussion: "Prints \"no circle yet\" when none arrives within --timeout.")
    @OptionGroup var options: CircleOptions

    func run() async throws {
        let (user, settings) = try options.signedIn()
        let view = try await BrokerConnection.withClient(settings) { client in
            try await options.client(client, user: user, prefix: settings.prefix).view()
        }
        guard let view else {
            let topic = Topic.circle(user).name(prefix: settings.prefix)
            print("no circle yet for \(user) (nothing retained on \(topic) within \(options.timeout))")
            return
        }
        CircleText().lines(view, now: Date().timeIntervalSince1970).forEach { print($0) }
    }
}
