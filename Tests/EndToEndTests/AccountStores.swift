import Foundation
import GRDB
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// What the stack keeps about one walker, looked up where each owner keeps it: the services'
/// own SQLite files (read-only, while they run: WAL mode lets a reader in beside the writer), the
/// broker's retained messages, and the plugin's logins.
enum WalkerTraces {
    /// One place a walker's rows live: a service's file, and a query counting them (`?` is the
    /// walker). The tables are each service's own (Services/*/Kit, docs/services/*.md).
    struct Place: Sendable {
        let service: ServiceName
        let file: String
        let table: String
        let count: String

        init(_ service: ServiceName, _ file: String, _ table: String, where condition: String = "walker = ?") {
            self.service = service
            self.file = file
            self.table = table
            count = "SELECT COUNT(*) FROM \(table) WHERE \(condition)"
        }
    }

    static let places: [Place] = [
        Place(.web, "web.sqlite", "accounts", where: "username_key = lower(?)"),
        Place(.web, "web.sqlite", "sessions", where: "username_key = lower(?)"),
        Place(.web, "web.sqlite", "erasures", where: "username_key = lower(?)"),
        Place(.locationIngest, "location-ingest.sqlite", "fix"),
        Place(.locationIngest, "location-ingest.sqlite", "fix_log"),
        Place(.locationIngest, "location-ingest.sqlite", "track"),
        Place(.locationIngest, "location-ingest.sqlite", "owntracks_will"),
        Place(.watchdog, "watchdog.sqlite", "watch"),
        Place(.watchdog, "watchdog.sqlite", "outbox"),
        Place(.notifier, "notifier.sqlite", "escalation"),
        // Only an escalation names the walker; a delivery whose escalation is gone is left over.
        Place(
            .notifier, "notifier.sqlite", "delivery",
            where: "escalationId IN (SELECT id FROM escalation WHERE walker = ?) "
                + "OR escalationId NOT IN (SELECT id FROM escalation)"),
        Place(.contactsStore, "contacts-store.sqlite", "contact"),
    ]

    /// `"service table"` → the rows about `walker` there.
    static func rows(of walker: String, in stack: ServiceStack) throws -> [String: Int] {
        var rows: [String: Int] = [:]
        for place in places {
            let file = try #require(stack.dataDirectory(of: place.service)).appendingPathComponent(place.file)
            var configuration = Configuration()
            configuration.readonly = true
            let database = try DatabaseQueue(path: file.path, configuration: configuration)
            rows["\(place.service) \(place.table)"] = try database.read { db in
                try Int.fetchOne(db, sql: place.count, arguments: [walker]) ?? 0
            }
            try database.close()
        }
        return rows
    }

    /// The services holding at least one row about `walker`.
    static func holders(of walker: String, in stack: ServiceStack) throws -> Set<ServiceName> {
        let rows = try rows(of: walker, in: stack)
        return Set(places.filter { rows["\($0.service) \($0.table)", default: 0] > 0 }.map(\.service))
    }

    /// The topics under `filters` that hold a retained message, as a fresh test observer session
    /// is handed them. The broker sends a subscription's retained messages right after granting
    /// it, one subscription after another: once the retained `online` of web (subscribed last)
    /// has arrived, those of the filters before it have too.
    static func retainedTopics(under filters: [String], in stack: ServiceStack) async throws -> [String] {
        let reader = try await stack.client(as: SecuredBroker.observer, role: "retained")
        var subscriptions: [MQTTSubscription] = []
        for filter in filters { subscriptions.append(try await reader.subscribe(filter, qos: .atLeastOnce)) }
        let marker = try await reader.subscribe(
            try #require(Topic(.serviceStatus, service: .web)).name(), qos: .atLeastOnce)
        _ = try await marker.first(1)
        var topics: [String] = []
        for subscription in subscriptions {
            topics += await subscription.drained().filter { $0.retain && !$0.payload.isEmpty }.map(\.topic)
        }
        await reader.shutdown()
        return topics.sorted()
    }
}
