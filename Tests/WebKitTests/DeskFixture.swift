import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import SafeWalkWebKit
import TestSupport
import Testing

/// web's monitoring desk on a real Mosquitto over real loopback HTTP: the test publishes
/// incidents, ladders, positions and statuses as the watchdog, the notifier and location-ingest
/// would, and answers `_desk/close` and `_acks/request` as the watchdog and the notifier do.
struct DeskFixture: Sendable {
    static let alice = WalkerID(validating: "alice")!
    static let incident = "i-1"

    let web: WebFixture
    let broker: MosquittoBroker
    let bus: MQTTClient
    let peer: MQTTClient
    let live: LivePages
    let desk: Desk
    let clock: WallTime

    static func start() async throws -> DeskFixture {
        var settings = WebSettings()
        settings.live.acknowledgementWait = .seconds(3)
        settings.desk.answerWait = .seconds(3)
        settings.desk.boardInterval = .milliseconds(20)
        let web = try WebFixture(settings: settings)
        let broker = try await MosquittoBroker.start()
        let bus = try await broker.client("web")
        let peer = try await broker.client("peer")
        let clock = WallTime()
        var logger = Logger(label: "desk-test")
        logger.logLevel = .critical
        let live = try await LivePages.connect(
            bus: bus, prefix: "safewalk", database: web.accounts.database, settings: settings.live, logger: logger,
            now: { clock.now })
        let desk = try await Desk.connect(
            bus: bus, prefix: "safewalk", database: web.accounts.database, settings: settings.desk, live: live,
            logger: logger, now: { clock.now })
        return DeskFixture(web: web, broker: broker, bus: bus, peer: peer, live: live, desk: desk, clock: clock)
    }

    var now: Double { clock.now }
    var database: WebDatabase { web.accounts.database }

    /// Runs `test` with web listening on a free loopback port (given for raw event streams).
    func serve(_ test: @escaping @Sendable (any TestClientProtocol, Int) async throws -> Void) async throws {
        let intake = Task { try await live.run() }
        let deskIntake = Task { try await desk.run() }
        defer {
            intake.cancel()
            deskIntake.cancel()
        }
        try await WebApplication.make(accounts: web.accounts, live: live, desk: desk).test(.live) { client in
            try await test(client, try #require(client.port))
        }
        await bus.shutdown()
        await peer.shutdown()
        await broker.shutdown()
    }

    func publish(_ topic: Topic, _ value: some Encodable, retain: Bool = true) async throws {
        try await peer.publish(topic.name(prefix: "safewalk"), payload: try SafeWalkJSON.encode(value), retain: retain)
    }

    func incident(
        _ state: IncidentState.Phase = .open, duress: Bool = false, id: String = DeskFixture.incident
    ) -> IncidentState {
        IncidentState(
            incident: id, walker: Self.alice, state: state, reason: .needHelp, level: .red, duress: duress,
            openedAt: now - 60, closedAt: state == .closed ? now : nil, closedBy: state == .closed ? .imSafe : nil)
    }

    func position(lat: Double, lon: Double) -> PositionUpdate {
        PositionUpdate(
            fix: LocationFix(lat: lat, lon: lon, tst: now - 5, acc: 12, batt: 70), moved: true, lastMovedAt: now - 5)
    }

    /// An operator account (as `safewalk user add --operator` makes one) and its session.
    func operatorSession(
        _ client: any TestClientProtocol, _ name: String = "olga", role: Account.Role = .operator
    ) async throws -> Credentials {
        _ = try await web.accounts.addOperator(
            username: name, email: "\(name)@desk.example.org", password: "desk-safe-1", role: role)
        let response = try await client.send(
            .post, "/v1/desk/sessions", json: #"{"username":"\#(name)","password":"desk-safe-1"}"#)
        try #require(response.status == .ok, "\(response.text)")
        return try Credentials(response)
    }

    /// Polls until the desk knows the walker's incident in state `state`.
    func untilDeskSees(_ state: IncidentState.Phase, id: String = DeskFixture.incident) async throws {
        for _ in 0..<200 {
            if desk.incident(id)?.state == state { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw HarnessError.timedOut("the desk never saw \(id) \(state)")
    }
}
