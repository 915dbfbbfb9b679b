import Foundation
import Logging
import SafeWalkCore

/// Every walker's contacts: the rules applied to the current list, the database written
/// before anyone is told. An actor, so commands from both subscriptions apply one at a time.
public actor ContactsDirectory {
    private let rules: ContactRules
    private let database: ContactsDatabase
    private let makeID: @Sendable () -> String
    private var entries: [WalkerID: [ContactEntry]]

    public init(
        rules: ContactRules, database: ContactsDatabase,
        makeID: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
    ) throws {
        self.rules = rules
        self.database = database
        self.makeID = makeID
        self.entries = try database.loadAll()
    }

    /// Every walker that has contacts, with their list (published at start-up).
    public func allLists() -> [(WalkerID, ContactList)] {
        entries.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }
            .map { ($0.key, ContactList(contacts: $0.value.map(\.contact))) }
    }

    public func list(of walker: WalkerID) -> ContactList {
        ContactList(contacts: (entries[walker] ?? []).map(\.contact))
    }

    /// Applies a command. Returns the answer, and the new list when it changed.
    public func apply(_ command: ContactCommand, for walker: WalkerID) -> (ContactResult, ContactList?) {
        let current = entries[walker] ?? []
        do throws(ContactError) {
            switch command {
            case .add(let request):
                let entry = try rules.add(request, id: makeID(), to: current)
                try write { try database.insert(entry, for: walker) }
                entries[walker] = current + [entry]
                return (ContactResult(operation: .add, outcome: .ok(contactID: entry.id)), list(of: walker))
            case .remove(let request):
                let remaining = try rules.remove(id: request.id, from: current)
                try write { try database.delete(id: request.id, for: walker) }
                entries[walker] = remaining
                return (ContactResult(operation: .remove, outcome: .ok(contactID: request.id)), list(of: walker))
            }
        } catch {
            return (ContactResult(operation: command.operation, outcome: .failed(message: error.message)), nil)
        }
    }

    private func write(_ body: () throws -> Void) throws(ContactError) {
        do {
            try body()
        } catch {
            throw .storageFailed
        }
    }
}
