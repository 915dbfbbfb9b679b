import SafeWalkCore

/// Every walker's contact list, from the retained `{p}/+/contacts` topics, kept in memory and
/// replaced on every change.
///
/// At start-up the retained lists arrive shortly after subscribing, possibly after an
/// escalation; an escalation for a walker whose list has not arrived yet waits for it until
/// the book is ``settle()``d (a short, configurable time after subscribing). After that, a
/// walker with no list simply has no contacts, and nobody waits.
public actor ContactBook {
    private var lists: [WalkerID: [Contact]] = [:]
    private var waiters: [WalkerID: [CheckedContinuation<Void, Never>]] = [:]
    private var settled = false

    public init() {}

    /// Replaces a walker's list; nil (an empty retained message) clears it.
    public func update(_ walker: WalkerID, contacts: [Contact]?) {
        lists[walker] = contacts ?? []
        waiters.removeValue(forKey: walker)?.forEach { $0.resume() }
    }

    /// Forgets a walker's list (an erasure). Anyone waiting for it is released and finds none.
    public func forget(_ walker: WalkerID) {
        lists[walker] = nil
        waiters.removeValue(forKey: walker)?.forEach { $0.resume() }
    }

    /// From now on an unknown walker has no contacts; releases every waiter.
    public func settle() {
        settled = true
        let all = waiters.values.flatMap { $0 }
        waiters = [:]
        all.forEach { $0.resume() }
    }

    /// The walker's contacts, waiting for the retained list if the book has not settled.
    public func contacts(for walker: WalkerID) async -> [Contact] {
        if lists[walker] == nil && !settled {
            await withCheckedContinuation { waiters[walker, default: []].append($0) }
        }
        return lists[walker] ?? []
    }

    /// Waits until a list for `walker` has arrived, whether or not the book has settled.
    public func waitForList(_ walker: WalkerID) async {
        await waitUntil(walker) { _ in true }
    }

    /// Waits until the walker's list satisfies `condition` (for tests and diagnostics).
    public func waitUntil(_ walker: WalkerID, _ condition: @Sendable ([Contact]) -> Bool) async {
        while !(lists[walker].map(condition) ?? false) {
            await withCheckedContinuation { waiters[walker, default: []].append($0) }
        }
    }
}
