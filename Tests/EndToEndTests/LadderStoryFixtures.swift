import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// The stack the ladder stories run on: accounts (so there is a web to open links on), the five
/// services, the fake Twilio gateway for texts, delivery reports and replies, and its webhook
/// receiver as the dispatch centre. The ladder's waits are seconds, by configuration.
struct LadderWorld: Sendable {
    let stack: ServiceStack
    let gateway: FakeSMSGateway

    /// Tier 2 three seconds after tier 1 (red), dispatch three seconds after that; no reminders
    /// or resumptions within a story.
    static let ladderSettings = [
        "SAFEWALK_LADDER_TIER2_RED": "3", "SAFEWALK_LADDER_TIER3_RED": "3",
        "SAFEWALK_LADDER_TIER2_AMBER": "3", "SAFEWALK_LADDER_TIER3_AMBER": "3",
        "SAFEWALK_LADDER_REMINDER": "600", "SAFEWALK_LADDER_RESUME": "600",
    ]

    static func start(_ overrides: [String: String] = [:]) async throws -> LadderWorld {
        let gateway = try await FakeSMSGateway()
        let environment = gateway.environment.merging([
            "SAFEWALK_CHANNELS": "device,log,sms-http,webhook",
            // As an operator configures Twilio for delivery reports: its StatusCallback field.
            "SAFEWALK_SMS_TEMPLATE": FakeSMSGateway.template + "&StatusCallback={callback}",
            "SAFEWALK_WEBHOOK_URL": gateway.baseURL + "/hook", "SAFEWALK_WEBHOOK_SECRET": FakeSMSGateway.webhookSecret,
            "SAFEWALK_TWILIO_AUTH_TOKEN": FakeSMSGateway.token,
            "SAFEWALK_CONTACTS_SETTLE": "0.5", "SAFEWALK_NOTIFY_BACKOFF": "0.2",
            "SAFEWALK_MAP_TILES": "none",
        ]) { $1 }.merging(ladderSettings) { $1 }.merging(overrides) { $1 }
        return LadderWorld(
            stack: try await ServiceStack.startWithAccounts(environment: environment), gateway: gateway)
    }

    func stop() async {
        await stack.stop()
        await gateway.shutdown()
    }

    /// Runs `story` and stops everything afterwards; a failing story carries the services' logs.
    static func run(_ overrides: [String: String] = [:], _ story: (LadderWorld) async throws -> Void) async throws {
        let world = try await start(overrides)
        do {
            try await story(world)
        } catch {
            let logs = world.stack.logs
            await world.stop()
            throw HarnessError.processFailed("\(error)\n\(logs)")
        }
        await world.stop()
    }

    /// The texts `number` has received so far.
    func texts(to number: String) async throws -> [String] {
        try await gateway.stats().bodies[number] ?? []
    }

    /// Waits until `number` has received `count` texts; returns them all.
    func waitForTexts(to number: String, count: Int, within seconds: Double = 20) async throws -> [String] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            let texts = try await texts(to: number)
            if texts.count >= count { return texts }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw HarnessError.processFailed(
            "\(number) got \(try await texts(to: number)) within \(seconds) s, not \(count)")
    }

    /// The `_ladder/{w}` states the operator sees, from now on.
    func ladder(of walker: String) async throws -> MQTTSubscription {
        try await stack.observer.subscribe("safewalk/_ladder/\(walker)", qos: .atLeastOnce)
    }
}

/// Someone with an account whose phone is logged in with it, in a ladder story.
struct LadderWalker: Sendable {
    let person: Person
    let phone: MQTTClient
    var id: String { person.name }

    static func signUp(_ name: String, on stack: ServiceStack) async throws -> LadderWalker {
        let person = try await Person.signUp(name, on: stack)
        return LadderWalker(person: person, phone: try await person.phone(on: stack))
    }

    func topic(_ kind: Topic.Kind) throws -> String { try person.topic(kind) }

    /// Adds contacts as the phone does (tier 2 for backups) and waits until every one is stored.
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

    /// A fix from the phone, 5 m accuracy, and waits until it is the walker's position.
    func fix(lat: Double, lon: Double, on world: LadderWorld) async throws {
        let positions = try await world.stack.observer.subscribe(topic(.position), qos: .atLeastOnce)
        try await phone.publish(
            topic(.fix),
            payload: SafeWalkJSON.encode(LocationFix(lat: lat, lon: lon, tst: Date().timeIntervalSince1970, acc: 5)))
        _ = try await positions.decoded(PositionUpdate.self) { abs($0.fix.lat - lat) < 1e-9 }
        positions.cancel()
    }

    func send(_ kind: Action.Kind, pin: PIN? = nil) async throws {
        try await phone.publish(
            topic(.action), payload: SafeWalkJSON.encode(Action(id: UUID().uuidString, kind: kind, pin: pin)))
    }

    func leave() async { await phone.shutdown() }
}

/// What a text says about the incident: its personal link and its reply code.
struct IncidentText {
    let link: String
    let code: String

    init(_ text: String) throws {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        link = try #require(words.first { $0.contains("/i/") }, "no link in \(text)")
        let reply = try #require(words.firstIndex(of: "OK"), "no reply code in \(text)")
        code = words[words.index(after: reply)].trimmingCharacters(in: .punctuationCharacters)
    }

    /// The path of the link (`/i/{token}`), for a client of this stack's web.
    var path: String { link.range(of: "/i/").map { String(link[$0.lowerBound...]) } ?? link }
}
