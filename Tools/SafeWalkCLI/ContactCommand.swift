import ArgumentParser
import Foundation
import SafeWalkCore

/// `safewalk contact add|list`: a walker's emergency contacts, through contacts-store.
struct ContactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contact", abstract: "Add and list a walker's emergency contacts (via contacts-store).",
        subcommands: [ContactAddCommand.self, ContactListCommand.self])
}

struct ContactAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an emergency contact and print contacts-store's verdict.",
        discussion: "Publishes {walker}/contacts/add and waits for {walker}/contacts/result.")

    @Argument(help: "The walker id.") var walker: String
    @Argument(help: "The contact's name.") var name: String
    @Argument(help: "The contact's phone number, e.g. \"512 555 0100\" or +15125550100.") var phone: String
    @Flag(help: "Add the contact as a backup (tier 2): told only if nobody in tier 1 answers in time.")
    var backup = false
    @Option(help: "How long to wait for contacts-store's answer.")
    var timeout = DurationValue(seconds: 5)
    @OptionGroup var broker: BrokerOptions

    func validate() throws { _ = try parsedWalker(walker) }

    func run() async throws {
        let walkerID = try parsedWalker(walker)
        let settings = try broker.settings(defaultUsername: walker)
        let outcome = try await BrokerConnection.withClient(settings) { client in
            try await ContactsClient(bus: client, prefix: settings.prefix, timeout: timeout.seconds)
                .add(walker: walkerID, name: name, phone: phone, tier: backup ? 2 : nil)
        }
        print(ContactsText.outcome(outcome, name: name))
        if case .failed = outcome { throw ExitCode.failure }
    }
}

struct ContactListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print a walker's contact list (the retained {walker}/contacts).",
        discussion: "Prints \"no contacts\" when no list arrives within --timeout.")

    @Argument(help: "The walker id.") var walker: String
    @Option(help: "How long to wait for the retained list.")
    var timeout = DurationValue(seconds: 3)
    @Flag(name: .customLong("show-phones"), help: "Print phone numbers in full instead of masked.")
    var showPhones = false
    @OptionGroup var broker: BrokerOptions

    func validate() throws { _ = try parsedWalker(walker) }

    func run() async throws {
        let walkerID = try parsedWalker(walker)
        let settings = try broker.settings(defaultUsername: walker)
        let list = try await BrokerConnection.withClient(settings) { client in
            try await ContactsClient(bus: client, prefix: settings.prefix, timeout: timeout.seconds)
                .list(walker: walkerID)
        }
        print(ContactsText.list(list, showPhones: showPhones))
    }
}

/// A walker id argument, or a validation error that says what is wrong with it.
func parsedWalker(_ raw: String) throws -> WalkerID {
    do {
        return try WalkerID(raw)
    } catch {
        throw ValidationError("'\(raw)' is not a walker id: \(error)")
    }
}
