import Foundation
import HummingbirdBcrypt
import Logging
import SafeWalkBrokerPolicy

/// `broker-admin`'s broker on a NATS cluster: the plugin's commands carried out on
/// ``NATSDirectory``, kept in SQLite (``NATSDirectoryStore``), written to the nodes' users file
/// (``NATSUsersFile``) and answered once the nodes have loaded it. So the account logic
/// (``AccountPlan``, ``BrokerAdminService``) is the same on both brokers, and a walker signed up
/// through `web` can connect to every node when `web` says so (docs/SCALING.md, "Sign-up on the
/// cluster").
public actor NATSUserDirectory: DynamicSecurity {
    private var directory: NATSDirectory
    private let store: NATSDirectoryStore
    private let file: NATSUsersFile
    private let acl: BrokerACL
    private let settings: NATSAccountSettings
    private let logger: Logger
    /// How many times the file was written, and at which of those each recent digest was: a
    /// node that skipped a version (two batches within one look of its reloader) and loaded a
    /// later one has this batch's logins too.
    private var generation = 0
    private var generations: [String: Int] = [:]

    /// Reads the store and writes the users file from it at once: whatever a crash left between
    /// the two, the nodes load what the store holds.
    public init(
        store: NATSDirectoryStore, file: NATSUsersFile, acl: BrokerACL, settings: NATSAccountSettings, logger: Logger
    ) throws {
        self.store = store
        self.file = file
        self.acl = acl
        self.settings = settings
        self.logger = logger
        let stored = try store.load()
        directory = stored
        let digest = try file.write(Self.text(of: stored, acl: acl))
        generations[digest] = generation
        logger.info(
            "NATS users file written",
            metadata: ["path": "\(file.path.path)", "logins": "\(stored.logins.count)", "sha256": "\(digest)"])
    }

    /// Carries the batch out in order (a failed command does not undo the ones before, as with
    /// the plugin), saves what changed, and when anything did, writes the users file and waits
    /// for the nodes. Throws ``DynamicSecurityError/noAnswer(commands:timeout:)`` when no node
    /// acknowledged in time: done, but not known to be in force, as when the plugin is silent.
    public func perform(_ commands: [ControlCommand]) async throws -> [ControlReply] {
        var next = directory
        var change = NATSDirectory.Change()
        var replies: [ControlReply] = []
        let cost = settings.bcryptCost
        for command in commands {
            let (reply, changed) = next.apply(command) { Bcrypt.hash($0, cost: cost) }
            replies.append(reply)
            change.formUnion(changed)
        }
        guard !change.isEmpty else { return replies }
        try store.save(change, of: next)
        directory = next
        let (digest, written) = try write(next)
        guard !settings.nodes.isEmpty else { return replies }
        let loaded = try await nodesLoading(written)
        let missing = settings.nodes.filter { !loaded.contains($0) }
        if loaded.isEmpty {
            logger.error(
                "no NATS node loaded the users file", metadata: ["sha256": "\(digest)", "nodes": "\(missing)"])
            throw DynamicSecurityError.noAnswer(commands: commands.map(\.name), timeout: settings.reloadWait)
        }
        if !missing.isEmpty {
            // A node that is down loads the file when it starts; the others have it now.
            logger.warning(
                "NATS nodes did not load the users file in time",
                metadata: ["sha256": "\(digest)", "missing": "\(missing)"])
        }
        return replies
    }

    public func post(_ commands: [ControlCommand]) async throws {
        _ = try await perform(commands)
    }

    /// The users file for `directory`: the ACL's service users, then its enabled logins.
    private static func text(of directory: NATSDirectory, acl: BrokerACL) throws -> String {
        try NATSAuthorization.block(acl: acl, logins: directory.logins(acl: acl))
    }

    /// Writes the file for `directory` as the next generation; returns its digest and generation.
    private func write(_ directory: NATSDirectory) throws -> (digest: String, generation: Int) {
        let digest = try file.write(Self.text(of: directory, acl: acl))
        generation += 1
        generations[digest] = generation
        // Only recent versions are awaited: an acknowledgement older than these is of no batch.
        if generations.count > 512 { generations = generations.filter { $0.value > generation - 256 } }
        return (digest, generation)
    }

    /// Waits up to the reload wait, looking every 20 ms, for every node to acknowledge the file of
    /// generation `wanted` or a later one; returns those that did. The actor is free meanwhile:
    /// later batches write later versions, which count.
    private func nodesLoading(_ wanted: Int) async throws -> Set<String> {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: settings.reloadWait)
        while true {
            let loaded = Set(
                settings.nodes.filter { node in
                    file.loadedDigest(of: node).flatMap { generations[$0] }.map { $0 >= wanted } ?? false
                })
            if loaded.count == settings.nodes.count || clock.now >= deadline { return loaded }
            try await clock.sleep(for: .milliseconds(20))
        }
    }
}
