import Foundation
import Logging
import SafeWalkCore

/// Every walker's contacts: the rules applied to the current list, the database written
/// before anyone is told. Commands from both subscriptions apply one at a time: the actor alone
/// is not enough, because a command awaits its write between reading the list and changing it,
/// and the actor would let the next command read the old list meanwhile; so each command also
/// waits for its turn (``apply(_:for:)``).
public actor ContactsDirectory {
    private let rules: ContactRules
    private let database: ContactsDatabase
    private let makeID: @Sendable () -> String
    private var entries: [WalkerID: [ContactEntry]]
    /// Whether a command holds the turn, and the commands waiting for it, in arrival order.
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(
        rules: ContactRules, database: ContactsDatabase,
        makeID: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
    ) async throws {
        let entries = try await database.loadAll()
        self.rules = rules
        self.database = database
        self.makeID = makeID
        self.entries = entries
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
    public func apply(_ command: ContactCommand, for walker: WalkerID) async -> (ContactResult, ContactList?) {
        await takeTurn()
        defer { endTurn() }
        let current = entries[walker] ?? []
        do throws(ContactError) {
            switch command {
            case .add(let request):
                let entry = try rules.add(request, id: makeID(), to: current)
                try await write { try await database.insert(entry, for: walker) }
                entries[walker] = current + [entry]
                return (ContactResult(operation: .add, outcome: .ok(contactID: entry.id)), list(of: walker))
            case .remove(let request):
                let remaining = try rules.remove(id: request.id, from: current)
                try await write { try await database.delete(id: request.id, for: walker) }
                entries[walker] = remaining
                return (ContactResult(operation: .remove, outcome: .ok(contactID: request.id)), list(of: walker))
            }
        } catch {
            return (ContactResult(operation: command.operation, outcome: .failed(message: error.message)), nil)
        }
    }

    /// Forgets every contact of `walker`, in the database and here, taking its turn like a command
    /// (so it never lands between a command's read and its write). When the database refuses, the
    /// list stays as it was and the error is thrown; a walker with no contacts is erased already.
    public func erase(_ walker: WalkerID) async throws {
        await takeTurn()
        defer { endTurn() }
        try await database.deleteAll(for: walker)
        entries[walker] = nil
    }

    private func write(_ body: () async throws -> Void) async throws(ContactError) {
        do {
            try await body()
        } catch {
            throw .storageFailed
        }
    }

    private func takeTurn() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the turn to the next waiting command (it stays busy), or frees it.
    private func endTurn() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}
