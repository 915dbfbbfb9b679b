import Foundation
import SafeWalkCore

/// One command from a walker's device.
public enum ContactCommand: Hashable, Sendable {
    case add(ContactAdd)
    case remove(ContactRemove)

    public var operation: ContactResult.Operation {
        switch self {
        case .add: .add
        case .remove: .remove
        }
    }
}

/// What a message on a contacts command topic turned out to be. Pure.
public enum ContactIntake: Hashable, Sendable {
    case command(WalkerID, ContactCommand)
    /// The walker is known but the payload is not a command: answer them on their result topic.
    case unreadable(WalkerID, ContactResult.Operation, PayloadError)
    /// No valid walker: nobody to answer, only an operator report.
    case invalidTopic(kind: Topic.Kind)

    /// Commands are small; anything bigger is refused before parsing.
    public static let maxBytes = 4 * 1024

    public static func read(topic: String, payload: Data, prefix: String) -> ContactIntake {
        let parsed = Topic.parse(topic, prefix: prefix)
        switch (parsed?.kind, parsed?.walker) {
        case (.contactsAdd?, let walker?):
            do {
                return .command(
                    walker, .add(try SafeWalkJSON.decode(ContactAdd.self, from: payload, maxBytes: maxBytes)))
            } catch {
                return .unreadable(walker, .add, error)
            }
        case (.contactsRemove?, let walker?):
            do {
                return .command(
                    walker, .remove(try SafeWalkJSON.decode(ContactRemove.self, from: payload, maxBytes: maxBytes)))
            } catch {
                return .unreadable(walker, .remove, error)
            }
        default:
            return .invalidTopic(kind: topic.hasSuffix("/remove") ? .contactsRemove : .contactsAdd)
        }
    }
}
