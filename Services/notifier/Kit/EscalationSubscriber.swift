import Foundation
import GRDB
import Logging
import SafeWalkCore
import SafeWalkMQTT
import ServiceLifecycle

/// The skeleton of an out-of-process channel (docs/CHANNELS.md): a separate program with its
/// own broker user that subscribes to `{p}/+/escalation`, drops ids it has already handled
/// (kept in its own SQLite file, so a restart does not repeat them) and reports each delivery
/// on `{p}/{w}/delivery`. Give it a name and a `deliver` function; it does the rest.
///
/// Delivery is at-least-once: an id is recorded as handled right after `deliver` succeeds, so
/// a crash between the two repeats that one delivery (and only that one) on redelivery.
public struct EscalationSubscriber: Service {
    /// Delivers one escalation; returns what the receipt names as recipient.
    public typealias Deliver = @Sendable (EscalationEvent) async throws(ChannelFailure) -> String

    let name: String
    let bus: any MessageBus
    let prefix: String
    let seen: DatabasePool
    let clock: any NotifierClock
    let logger: Logger
    let deliver: Deliver

    public init(
        name: String, bus: any MessageBus, prefix: String, database: DatabasePool,
        clock: any NotifierClock = SystemNotifierClock(), logger: Logger, deliver: @escaping Deliver
    ) {
        self.name = name
        self.bus = bus
        self.prefix = prefix
        self.seen = database
        self.clock = clock
        self.logger = logger
        self.deliver = deliver
    }

    /// The de-duplication table; run it on the subscriber's own database at start-up.
    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE handled (id TEXT PRIMARY KEY NOT NULL, at REAL NOT NULL)")
        }
        return migrator
    }

    public func run() async throws {
        try await consume(try await subscribe())
    }

    /// Subscribes to `{p}/+/escalation` (separate from ``consume(_:)`` so a caller can know
    /// when it is listening).
    public func subscribe() async throws -> MQTTSubscription {
        try await bus.subscribe(TopicFilter.every(.escalation, prefix: prefix).rawValue, qos: .atLeastOnce)
    }

    /// Handles escalations until the subscription ends or a graceful shutdown.
    public func consume(_ escalations: MQTTSubscription) async throws {
        for await message in escalations.cancelOnGracefulShutdown() {
            guard case .success(.escalation(let event)) = NotifierIntake.classify(message, prefix: prefix) else {
                logger.warning("escalation rejected", metadata: ["channel": "\(name)"])
                continue
            }
            let id = event.id
            if try await seen.read({ try Bool.fetchOne($0, sql: "SELECT 1 FROM handled WHERE id = ?", arguments: [id]) }
            ) == true {
                logger.info("duplicate escalation ignored", metadata: ["channel": "\(name)", "escalation": "\(id)"])
                continue
            }
            let receipt: DeliveryReceipt
            do throws(ChannelFailure) {
                let recipient = try await deliver(event)
                receipt = DeliveryReceipt(
                    escalationId: id, channel: name, recipient: recipient, status: .sent,
                    attempts: 1, at: clock.now())
            } catch {
                receipt = DeliveryReceipt(
                    escalationId: id, channel: name, recipient: name, status: .failed,
                    reason: error.reason, attempts: 1, at: clock.now())
            }
            if receipt.status == .sent {
                let now = receipt.at
                try await seen.write {
                    try $0.execute(sql: "INSERT OR IGNORE INTO handled VALUES (?, ?)", arguments: [id, now])
                }
            }
            // Never on the walker's own topic for a duress escalation (DeviceDisclosure).
            guard DeviceDisclosure.mayTellDevice(about: event) else { continue }
            try await bus.publish(
                Topic.delivery(event.walker).name(prefix: prefix),
                payload: try SafeWalkJSON.encode(receipt), qos: .atLeastOnce)
        }
    }
}

/// The example channel the tests run: appends one JSON line per escalation to a file (an
/// audit trail, or the spool of a pager gateway).
public struct FileAppendChannel: Sendable {
    public let file: URL

    public init(file: URL) { self.file = file }

    public func deliver(_ event: EscalationEvent) async throws(ChannelFailure) -> String {
        do {
            var line = try SafeWalkJSON.encode(event)
            line.append(0x0a)
            if !FileManager.default.fileExists(atPath: file.path) {
                _ = FileManager.default.createFile(atPath: file.path, contents: nil)
            }
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: line)
            try handle.synchronize()
        } catch {
            throw .transient("file: \(error)")
        }
        return file.lastPathComponent
    }
}
