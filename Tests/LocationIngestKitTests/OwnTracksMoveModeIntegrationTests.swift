import Foundation
import LocationIngestKit
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// The real executable and broker: the watchdog's retained incident state puts the walker's
/// OwnTracks app in move mode and asks for a location; its close, or a duress the device saw
/// cancelled, gives the app its mode back; a restart repeats nothing.
@Suite(.serialized, .holdsResources) struct OwnTracksMoveModeIntegrationTests {
    static let move =
        #"{"_type":"cmd","action":"setConfiguration","configuration":{"_type":"configuration","monitoring":2}}"#
    static let report = #"{"_type":"cmd","action":"reportLocation"}"#
    static func restore(_ mode: Int) -> String {
        #"{"_type":"cmd","action":"setConfiguration","configuration":{"_type":"configuration","monitoring":\#(mode)}}"#
    }

    static func incident(_ id: String, _ state: IncidentState.Phase, duress: Bool = false) throws -> Data {
        var incident = IncidentState(
            incident: id, walker: Fixtures.alice, state: .open, reason: .noReply, level: duress ? .red : .amber,
            duress: duress, openedAt: Date().timeIntervalSince1970)
        if state == .closed { incident = incident.closed(at: Date().timeIntervalSince1970, by: .imSafe) }
        return try SafeWalkJSON.encode(incident)
    }

    /// A location from the OwnTracks app in monitoring mode `mode`.
    static func location(mode: Int) -> Data {
        let tst = Int(Date().timeIntervalSince1970)
        return Data(#"{"_type":"location","acc":10,"lat":30.2849,"lon":-97.7341,"m":\#(mode),"tst":\#(tst)}"#.utf8)
    }

    @Test func anIncidentHoldsTheAppInMoveModeUntilItEndsAcrossARestart() async throws {
        let broker = try await MosquittoBroker.start()
        let ingest = SpawnedIngest(broker: broker)
        var process = try await ingest.start()
        let phone = try await broker.client()
        let watchdog = try await broker.client()
        let commands = try await phone.subscribe("owntracks/alice/+/cmd", qos: .atLeastOnce)
        let positions = try await watchdog.subscribe("safewalk/alice/position", qos: .atLeastOnce)

        // The app in manual mode (0); its position proves ingest saw it.
        try await phone.publish("owntracks/alice/phone", payload: Self.location(mode: 0))
        _ = try await positions.first(1)

        try await watchdog.publish(
            "safewalk/_incidents/alice", payload: try Self.incident("e1", .open), qos: .atLeastOnce, retain: true)
        let held = try await commands.first(2)
        #expect(held.map(\.topic) == ["owntracks/alice/phone/cmd", "owntracks/alice/phone/cmd"])
        #expect(held.map(\.string) == [Self.move, Self.report])
        #expect(held.allSatisfy { !$0.retain })

        // Restarted mid-incident: the retained open state comes again and is not acted on again;
        // the close, sent after, is the next command.
        #expect(try await ingest.stop(process) == 0)
        process = try await ingest.start()
        try await phone.publish("owntracks/alice/phone", payload: Self.location(mode: 2))
        try await watchdog.publish(
            "safewalk/_incidents/alice", payload: try Self.incident("e1", .closed), qos: .atLeastOnce, retain: true)
        #expect(try await commands.first(1).map(\.string) == [Self.restore(0)], "the usual mode, not move")

        // A duress: the incident stays open (red, for contacts), the app gets its mode back as
        // after a cancel.
        try await phone.publish("owntracks/alice/phone", payload: Self.location(mode: 0))
        try await watchdog.publish(
            "safewalk/_incidents/alice", payload: try Self.incident("e2", .open), qos: .atLeastOnce, retain: true)
        #expect(try await commands.first(2).map(\.string) == [Self.move, Self.report])
        try await watchdog.publish(
            "safewalk/_incidents/alice", payload: try Self.incident("e2", .open, duress: true), qos: .atLeastOnce,
            retain: true)
        #expect(try await commands.first(1).map(\.string) == [Self.restore(0)])

        // Restarted again: the retained duress state repeats nothing; a new incident is the next word.
        #expect(try await ingest.stop(process) == 0)
        process = try await ingest.start()
        try await watchdog.publish(
            "safewalk/_incidents/alice", payload: try Self.incident("e3", .open), qos: .atLeastOnce, retain: true)
        #expect(try await commands.first(2).map(\.string) == [Self.move, Self.report])

        #expect(try await ingest.stop(process) == 0)
        await phone.shutdown()
        await watchdog.shutdown()
        await broker.shutdown()
    }
}
