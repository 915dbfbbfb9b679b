import Foundation
import SafeWalkCore
import SafeWalkMQTT

/// The walker's side of contacts-store: add a contact and wait for the verdict, read the list.
public struct ContactsClient: Sendable {
    public let bus: any MessageBus
    public let prefix: String
    /// How long to wait for contacts-store before giving up.
    public let timeout: Double

    public init(bus: any MessageBus, prefix: String = Topic.defaultPrefix, timeout: Double = 5) {
        self.bus = bus
        self.prefix = prefix
        self.timeout = timeout
    }

    /// Publishes `{w}/contacts/add` and returns the next add result on `{w}/contacts/result`.
    /// `tier` 2 adds a backup; nil leaves it out (tier 1).
    public func add(walker: WalkerID, name: String, phone: String, tier: Int? = nil) async throws
        -> ContactResult.Outcome
    {
        // Subscribe first so the answer cannot slip past between publish and subscribe.
        let results = try await bus.subscribe(Topic.contactsResult(walker).name(prefix: prefix), qos: .atLeastOnce)
        try await bus.publish(
            MQTTMessage(
                topic: Topic.contactsAdd(walker).name(prefix: prefix),
                payload: try SafeWalkJSON.encode(ContactAdd(name: name, phone: phone, tier: tier))))
        let result: ContactResult? = await results.firstAccepted(within: timeout) { message in
            guard let result = try? SafeWalkJSON.decode(ContactResult.self, from: message.payload),
                result.operation == .add
            else { return nil }
            return result
        }
        guard let result else { throw CLIError.noAnswer(what: "contacts-store", seconds: timeout) }
        return result.outcome
    }

    /// The retained `{w}/contacts` list, or nil if none arrives within the timeout.
    public func list(walker: WalkerID) async throws -> ContactList? {
        let lists = try await bus.subscribe(Topic.contacts(walker).name(prefix: prefix), qos: .atLeastOnce)
        return await lists.firstAccepted(within: timeout) { message in
            try? SafeWalkJSON.decode(ContactList.self, from: message.payload)
        }
    }
}

/// Text for `contact add` and `contact list`: names in full (it is the walker's own list),
/// phone numbers masked unless asked for.
public enum ContactsText {
    public static func outcome(_ outcome: ContactResult.Outcome, name: String) -> String {
        switch outcome {
        case .ok(let id): "ok: added \(name)" + (id.map { " (id \($0))" } ?? "")
        case .failed(let message): "error: \(message)"
        }
    }

    public static func list(_ list: ContactList?, showPhones: Bool) -> String {
        guard let list, !list.contacts.isEmpty else { return "no contacts" }
        return list.contacts.map { contact in
            let phone = showPhones ? contact.phone : PhoneNumber.masked(contact.phone)
            let note =
                contact.dialable ? "" : "  (undialable" + (contact.reason.map { ": \($0.explanation)" } ?? "") + ")"
            let backup = contact.ladderTier == 2 ? "  (backup)" : ""
            return "\(contact.id)  \(contact.name)  \(phone)\(note)\(backup)"
        }.joined(separator: "\n")
    }
}
