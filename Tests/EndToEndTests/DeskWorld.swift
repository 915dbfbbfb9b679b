import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// The stack the monitoring desk's stories run on (issue 21): accounts (the secured broker with
/// dynamic security, broker-admin, web with its desk at `/ops`), the five services, and the fake
/// Twilio gateway for the contacts' texts. Nothing timed fires within a story but the ladder's
/// tier 2, ``tier2`` seconds after tier 1. Operators are made as an operator of the service makes
/// them: `safewalk user add NAME --operator`, written into the running web's own store.
struct DeskWorld: Sendable {
    let stack: ServiceStack
    let gateway: FakeSMSGateway
    /// Serves the map's tiles (one grid picture for every tile), for the stories with a map.
    let tiles: HeadlessBrowserTestSite?

    static let operatorPassword = "desk-safe-1"
    /// The desk's name as walkers and contacts read it (the default of `SAFEWALK_DESK_NAME`).
    static let deskName = "the campus desk"
    /// Seconds from tier 1 to tier 2 (red): long enough for the desk to act first on a busy machine.
    static let tier2 = 6.0

    static let settings: [String: String] = [
        "SAFEWALK_CHECKIN_INTERVAL": "600", "SAFEWALK_NO_REPLY_AFTER": "1200", "SAFEWALK_NO_MOVEMENT_AFTER": "1200",
        "SAFEWALK_OFFLINE_GRACE": "600", "SAFEWALK_MOVEMENT_METERS": "5",
        "SAFEWALK_CHANNELS": "device,log,sms-http",
        "SAFEWALK_SMS_TEMPLATE": FakeSMSGateway.template + "&StatusCallback={callback}",
        "SAFEWALK_TWILIO_AUTH_TOKEN": FakeSMSGateway.token,
        "SAFEWALK_CONTACTS_SETTLE": "0.5", "SAFEWALK_NOTIFY_BACKOFF": "0.2",
        "SAFEWALK_LADDER_TIER2_RED": "\(Int(tier2))", "SAFEWALK_LADDER_TIER3_RED": "600",
        "SAFEWALK_LADDER_TIER2_AMBER": "600", "SAFEWALK_LADDER_TIER3_AMBER": "600",
        "SAFEWALK_LADDER_REMINDER": "600", "SAFEWALK_LADDER_RESUME": "600",
        "SAFEWALK_MAP_TILES": "none",
    ]

    /// A light grid, the same for every tile: a map to look at without the network.
    static let tile = """
        <svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">\
        <rect width="256" height="256" fill="#e8eef0"/>\
        <path d="M0 64H256M0 128H256M0 192H256M64 0V256M128 0V256M192 0V256" stroke="#cfd8dc" stroke-width="2"/>\
        <path d="M0 0H256V256" fill="none" stroke="#b0bec5" stroke-width="3"/></svg>
        """

    /// Runs `story` on a fresh world and stops everything afterwards; a failing story carries
    /// the services' logs. With `map`, web's pages draw Leaflet maps on ``tile``.
    static func run(map: Bool = false, _ overrides: [String: String] = [:], _ story: (DeskWorld) async throws -> Void)
        async throws
    {
        let gateway = try await FakeSMSGateway()
        var tiles: HeadlessBrowserTestSite?
        var environment = gateway.environment.merging(settings) { $1 }
        do {
            if map {
                let site = try await HeadlessBrowserTestSite.start(["/tile.svg": ("image/svg+xml", tile)])
                tiles = site
                environment["SAFEWALK_MAP_TILES"] = "http://127.0.0.1:\(site.port)/tile.svg?{z}/{x}/{y}"
            }
            environment.merge(overrides) { $1 }
            let stack = try await ServiceStack.startWithAccounts(environment: environment)
            let world = DeskWorld(stack: stack, gateway: gateway, tiles: tiles)
            do {
                try await story(world)
            } catch {
                let logs = stack.logs
                await stack.stop()
                throw HarnessError.processFailed("\(error)\n\(logs)")
            }
            await stack.stop()
        } catch {
            await tiles?.shutdown()
            await gateway.shutdown()
            throw error
        }
        await tiles?.shutdown()
        await gateway.shutdown()
    }

    /// `safewalk user add NAME --operator --email … --data-dir <web's data directory>`, the real
    /// CLI writing into the store of the web that runs now (web reads the role at each sign-in).
    func addOperator(_ name: String, admin: Bool = false) async throws {
        let directory = try #require(stack.dataDirectory(of: .web), "web has no data directory")
        var arguments = ["user", "add", name, "--operator", "--email", "\(name)@desk.example.org"]
        if admin { arguments.append("--admin") }
        arguments += ["--data-dir", directory.path]
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SAFEWALK_") }
        environment["SAFEWALK_NEW_PASSWORD"] = Self.operatorPassword
        let (status, output) = try await ChildProcess.run(
            try Executables.product("safewalk"), arguments, environment: environment)
        try #require(status == 0, "safewalk user add \(name) --operator: \(status) \(output)")
    }

    /// An operator signed in to the desk over HTTP (`POST /v1/desk/sessions`).
    func deskSession(_ name: String) async throws -> DeskOperator {
        let web = stack.web()
        let answer = try await web.send(
            "POST", "/v1/desk/sessions", json: ["username": name, "password": Self.operatorPassword])
        let session = try #require(answer.session, "desk sign-in \(name): \(answer.status) \(answer.text)")
        return DeskOperator(web: web, session: session)
    }

    /// web's port, for event streams.
    var webPort: Int { stack.httpPorts[.web] ?? 0 }

    /// The texts `number` has received so far.
    func texts(to number: String) async throws -> [String] {
        try await gateway.stats().bodies[number] ?? []
    }

    /// Waits until `number` has received `count` texts; returns them all.
    func waitForTexts(to number: String, count: Int, within seconds: Double = 20) async throws -> [String] {
        var texts: [String] = []
        try await eventually("\(count) text(s) to \(number)", within: seconds) {
            texts = try await self.texts(to: number)
            return texts.count >= count
        }
        return texts
    }

    /// When the gateway took the first text to `number` (epoch seconds).
    func firstTextTime(to number: String) async throws -> Double {
        try #require(try await gateway.stats().times?[number]?.first, "no text to \(number)")
    }

    /// What the `operator` login (a dashboard) reads on `topic`, from now (and the retained one).
    func observe(_ topic: String) async throws -> MQTTSubscription {
        try await stack.observer.subscribe(topic, qos: .atLeastOnce)
    }
}

/// An operator signed in at the desk, speaking web's desk routes over real HTTP.
struct DeskOperator: Sendable {
    let web: WebClient
    let session: WebSession

    func get(_ path: String) async throws -> WebResponse {
        try await web.send("GET", path, json: nil, session: session, csrf: false)
    }

    func incident(_ id: String) async throws -> WebResponse { try await get("/v1/desk/incidents/\(id)") }

    func acknowledge(_ id: String) async throws -> WebResponse {
        try await web.send("POST", "/v1/desk/incidents/\(id)/ack", json: nil, session: session)
    }

    func close(_ id: String, reason: String, note: String? = nil) async throws -> WebResponse {
        var fields = ["reason": reason]
        fields["note"] = note
        return try await web.send("POST", "/v1/desk/incidents/\(id)/close", json: fields, session: session)
    }

    /// The board's event stream, as the desk's page opens it.
    func board(on world: DeskWorld) throws -> DeskEventStream {
        try DeskEventStream(port: world.webPort, path: "/v1/desk/events", cookie: session.cookie)
    }
}

/// A walker in the desk's stories: an account made by web's sign-up, its phone logged in to the
/// broker with the account's password, reading what a phone reads.
struct DeskWalker: Sendable {
    let person: Person
    let phone: MQTTClient
    var name: String { person.name }

    static func signUp(_ name: String, in world: DeskWorld) async throws -> DeskWalker {
        let person = try await Person.signUp(name, on: world.stack)
        return DeskWalker(person: person, phone: try await person.phone(on: world.stack))
    }

    func topic(_ kind: Topic.Kind) throws -> String { try person.topic(kind) }

    /// Everything the walker's phone may read, from now (retained messages first).
    func device() async throws -> MQTTSubscription {
        try await phone.subscribe("safewalk/\(name)/#", qos: .atLeastOnce)
    }

    /// Adds contacts as the phone does (tier 2 for backups); returns once every one is stored.
    func addContacts(_ contacts: [(name: String, phone: String, tier: Int?)]) async throws {
        let results = try await phone.subscribe(topic(.contactsResult), qos: .atLeastOnce)
        for contact in contacts {
            try await phone.publish(
                topic(.contactsAdd),
                payload: SafeWalkJSON.encode(ContactAdd(name: contact.name, phone: contact.phone, tier: contact.tier)))
        }
        let answers = try await results.decoded(ContactResult.self, count: contacts.count)
        let refused = answers.filter { !$0.isOK }
        #expect(refused.isEmpty, "contacts refused: \(refused)")
        results.cancel()
    }

    /// A fix from the phone (5 m accuracy); returns once it is the walker's position.
    func fix(lat: Double, lon: Double) async throws {
        let positions = try await phone.subscribe(topic(.position), qos: .atLeastOnce)
        try await phone.publish(
            topic(.fix),
            payload: SafeWalkJSON.encode(LocationFix(lat: lat, lon: lon, tst: Date().timeIntervalSince1970, acc: 5)))
        _ = try await positions.decoded(PositionUpdate.self) { abs($0.fix.lat - lat) < 1e-9 }
        positions.cancel()
    }

    /// Performs `kind` and returns the watchdog's answer.
    @discardableResult
    func perform(_ kind: Action.Kind, pin: PIN? = nil) async throws -> ActionResult {
        let answers = try await phone.subscribe(topic(.actionResult), qos: .atLeastOnce)
        let action = Action(id: UUID().uuidString, kind: kind, pin: pin)
        try await phone.publish(topic(.action), payload: SafeWalkJSON.encode(action))
        let answer = try #require(try await answers.decoded(ActionResult.self) { $0.id == action.id }.first)
        answers.cancel()
        return answer
    }

    /// `GET /v1/app/desk-views` with the walker's own session.
    func deskViews() async throws -> [[String: Any]] {
        let answer = try await person.web.send(
            "GET", "/v1/app/desk-views", json: nil, session: person.session, csrf: false)
        try #require(answer.status == 200, "desk-views: \(answer.status) \(answer.text)")
        let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        return object?["views"] as? [[String: Any]] ?? []
    }

    func leave() async { await phone.shutdown() }
}

extension MQTTSubscription {
    /// The next message (already here or still to come), with when this side read it.
    func stamped(within seconds: Double = 20) async throws -> (message: MQTTMessage, at: ContinuousClock.Instant) {
        let first = try await first(1, within: seconds)
        let at = ContinuousClock.now
        return (try #require(first.first), at)
    }
}

extension MQTTMessage {
    /// The payload as a JSON object.
    var object: [String: Any]? { (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any] }
}

/// The board event's entry for `incident`, if it lists it.
func boardRow(_ event: DeskEventStream.Event, incident: String) -> [String: Any]? {
    (event.json?["incidents"] as? [[String: Any]])?.first { $0["incident"] as? String == incident }
}
