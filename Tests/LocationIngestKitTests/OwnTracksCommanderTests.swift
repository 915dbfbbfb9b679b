import Foundation
import GRDB
import LocationIngestKit
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import SafeWalkStorage
import TestSupport
import Testing

/// The commander over an in-memory bus and a real temporary SQLite file: what reaches
/// `owntracks/{user}/{device}/cmd`, what is written, and what a restart remembers.
@Suite(.holdsResources) struct OwnTracksCommanderTests {
    let bus = InMemoryMessageBus()
    let pool: DatabasePool
    let store: TrackStore
    let phone = OwnTracksDeviceKey(walker: Fixtures.alice, device: try! DeviceName("phone"))

    init() throws {
        pool = try SQLiteStore.temporary(migrator: TrackStore.migrator).0
        store = TrackStore(pool: pool)
    }

    func commander() throws -> OwnTracksCommander {
        OwnTracksCommander(bus: bus, store: store, logger: Logger(label: "test"), devices: try store.loadDevices())
    }

    func location(_ mode: Int?, device: String = "phone", user: String = "alice") -> MQTTMessage {
        let m = mode.map { #","m":\#($0)"# } ?? ""
        return MQTTMessage(
            topic: "owntracks/\(user)/\(device)",
            payload: Data(#"{"_type":"location","lat":30.28,"lon":-97.73,"tst":1750000000\#(m)}"#.utf8))
    }

    /// The commands sent so far to `topic`, as text (keys sorted: the bytes are stable).
    func commands(_ topic: String = "owntracks/alice/phone/cmd") -> [String] {
        bus.published(matching: topic).map { message in
            #expect(!message.retain && message.qos == .atLeastOnce)
            return String(decoding: message.payload, as: UTF8.self)
        }
    }

    static let move = restore(2)
    static let report = #"{"_type":"cmd","action":"reportLocation"}"#
    /// Only `monitoring`: never host, port or credentials.
    static func restore(_ mode: Int) -> String {
        #"{"_type":"cmd","action":"setConfiguration","configuration":{"_type":"configuration","monitoring":\#(mode)}}"#
    }

    @Test func anOpenIncidentPutsEveryDeviceInMoveModeAndACloseGivesItsModeBack() async throws {
        let c = try commander()
        await c.observe([location(0), location(nil, device: "tablet"), location(1, user: "bob")])
        await c.follow(Fixtures.alice, incident: OwnTracksModeRuleTests.incident())
        #expect(commands() == [Self.move, Self.report])
        #expect(commands("owntracks/alice/tablet/cmd") == [Self.move, Self.report])
        #expect(commands("owntracks/bob/+/cmd").isEmpty)

        await c.observe([location(2)])  // the app in move mode says so: not its usual mode
        await c.follow(Fixtures.alice, incident: OwnTracksModeRuleTests.incident(state: .closed))
        #expect(commands() == [Self.move, Self.report, Self.restore(0)])
        #expect(commands("owntracks/alice/tablet/cmd").last == Self.restore(1), "never seen: significant")
    }

    @Test func aDuressOpenIsGivenBackAsACancelIs() async throws {
        let c = try commander()
        await c.observe([location(-1)])
        await c.follow(Fixtures.alice, incident: OwnTracksModeRuleTests.incident())
        await c.follow(Fixtures.alice, incident: OwnTracksModeRuleTests.incident(duress: true))
        #expect(commands() == [Self.move, Self.report, Self.restore(-1)])
        await c.follow(Fixtures.alice, incident: OwnTracksModeRuleTests.incident(state: .closed))
        #expect(commands().count == 3)
    }

    @Test func aDeviceFirstSeenDuringAnIncidentIsToldAtOnce() async throws {
        let c = try commander()
        await c.follow(Fixtures.alice, incident: OwnTracksModeRuleTests.incident())
        #expect(commands().isEmpty)
        await c.observe([location(1)])
        #expect(commands() == [Self.move, Self.report])
        await c.observe([location(2)])
        #expect(commands().count == 2)
    }

    @Test func aRestartRemembersDevicesModesAndWhatWasSaid() async throws {
        var c = try commander()
        await c.observe([location(0)])
        await c.follow(Fixtures.alice, incident: OwnTracksModeRuleTests.incident())
        #expect(commands().count == 2)

        // Restarted: the retained open state is handed over again; nothing is repeated.
        c = try commander()
        #expect(c.device(phone)?.commanded == .move(incident: "e1"))
        await c.follow(Fixtures.alice, incident: OwnTracksModeRuleTests.incident())
        #expect(commands().count == 2)
        await c.follow(Fixtures.alice, incident: OwnTracksModeRuleTests.incident(state: .closed))
        #expect(commands().last == Self.restore(0))

        c = try commander()
        await c.follow(Fixtures.alice, incident: OwnTracksModeRuleTests.incident(state: .closed))
        #expect(commands().count == 3)
    }

    @Test func onlyAChangeOfModeIsWritten() async throws {
        let c = try commander()
        await c.observe([location(1)])
        #expect(try store.loadDevices()[phone] == OwnTracksDevice(usualMode: 1))
        // Written rows are counted by SQLite's total_changes on the writer connection.
        let before = try await pool.write { $0.totalChangesCount }
        for _ in 0..<5 { await c.observe([location(1), location(nil)]) }
        #expect(try await pool.write { $0.totalChangesCount } == before)
        await c.observe([location(0)])
        #expect(try store.loadDevices()[phone] == OwnTracksDevice(usualMode: 0))
    }

    @Test func erasingTheWalkerForgetsItsDevices() async throws {
        let c = try commander()
        await c.observe([location(1), location(1, user: "bob")])
        try await store.erase(Fixtures.alice)
        c.forget(Fixtures.alice)
        #expect(c.device(phone) == nil)
        #expect(try store.loadDevices().keys.map(\.walker.rawValue) == ["bob"])
    }
}
