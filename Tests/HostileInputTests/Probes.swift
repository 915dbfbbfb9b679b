import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Synchronization
import TestSupport
import Testing

/// One good message per service and the proof that it was handled, seen where the walker sees
/// it: a position with the fix's time, a status with the new watching state, the companion's
/// answer, a delivery receipt for the escalation, an `ok` for a contact added and removed.
final class Probes: Sendable {
    let phone: MQTTClient
    /// Escalations are written only by the watchdog's user.
    let escalator: MQTTClient
    let positions, statuses, chats, deliveries, results: MQTTSubscription
    private let lastFixTime = Mutex(0.0)
    private let watching = Mutex(false)
    private let rounds = Mutex(0)

    init(stack: ServiceStack) async throws {
        phone = try await stack.client(as: SelectedCorpus.walker)
        escalator = try await stack.client(as: ServiceName.watchdog.rawValue)
        func own(_ kind: Topic.Kind) throws -> String {
            try #require(Topic(kind, walker: WalkerID(SelectedCorpus.walker))).name()
        }
        positions = try await phone.subscribe(own(.position))
        statuses = try await phone.subscribe(own(.status))
        chats = try await phone.subscribe(own(.chat))
        deliveries = try await phone.subscribe(own(.delivery))
        results = try await phone.subscribe(own(.contactsResult))
    }

    private var walker: WalkerID { try! WalkerID(SelectedCorpus.walker) }

    /// Every service handles a good message; `when` names the moment for failure messages.
    func all(_ when: String) async throws {
        let round = rounds.withLock {
            $0 += 1; return $0
        }
        async let position: Void = ingest(when)
        async let status: Void = watchdog(when)
        async let answer: Void = chat(when)
        async let receipt: Void = notifier(when, round: round)
        async let result: Void = contactsStore(when, round: round)
        _ = try await (position, status, answer, receipt, result)
    }

    func ingest(_ when: String) async throws {
        // Strictly newer than the last one, or ingest would (rightly) not publish it.
        let tst = lastFixTime.withLock { last in
            last = max(last + 0.001, (Date().timeIntervalSince1970 * 1000).rounded() / 1000)
            return last
        }
        let fix = LocationFix(lat: 30.2849, lon: -97.7341, tst: tst, acc: 5)
        try await phone.publish(Topic.fix(walker).name(), payload: SafeWalkJSON.encode(fix))
        try await positions.firstDecoded(PositionUpdate.self, "location-ingest position \(when)") { $0.fix.tst == tst }
    }

    func watchdog(_ when: String) async throws {
        let target = watching.withLock {
            $0.toggle(); return $0
        }
        let action = Action(id: UUID().uuidString, kind: target ? .start : .stop)
        try await phone.publish(Topic.action(walker).name(), payload: SafeWalkJSON.encode(action))
        try await statuses.firstDecoded(WatchStatus.self, "watchdog status watching=\(target) \(when)") {
            $0.watching == target
        }
    }

    func chat(_ when: String) async throws {
        let reply = Reply(text: QuickReply.okay.text, quickReply: true, tst: Date().timeIntervalSince1970)
        try await phone.publish(Topic.reply(walker).name(), payload: SafeWalkJSON.encode(reply))
        try await chats.firstDecoded(ChatMessage.self, "companion-chat answer \(when)") {
            $0.text == QuickReply.okay.answer
        }
    }

    func notifier(_ when: String, round: Int) async throws {
        let id = "probe-\(round)-\(UUID().uuidString)"
        let event = EscalationEvent(
            id: id, walker: walker, reason: .noReply, level: .amber,
            at: Date().timeIntervalSince1970, lastFix: nil, walk: nil)
        try await escalator.publish(Topic.escalation(walker).name(), payload: SafeWalkJSON.encode(event))
        try await deliveries.firstDecoded(DeliveryReceipt.self, "notifier receipt \(when)") {
            $0.escalationId == id && $0.status == .sent
        }
    }

    func contactsStore(_ when: String, round: Int) async throws {
        let add = ContactAdd(name: "Probe \(round)", phone: String(format: "+1512555%04d", round % 10_000))
        try await phone.publish(Topic.contactsAdd(walker).name(), payload: SafeWalkJSON.encode(add))
        let added = try await results.firstDecoded(ContactResult.self, "contacts-store add ok \(when)") {
            if case .ok = $0.outcome { $0.operation == .add } else { false }
        }
        guard case .ok(let id?) = added.outcome else { throw HarnessError.processFailed("add answered without an id") }
        try await phone.publish(
            Topic.contactsRemove(walker).name(), payload: SafeWalkJSON.encode(ContactRemove(id: id)))
        try await results.firstDecoded(ContactResult.self, "contacts-store remove ok \(when)") {
            if case .ok = $0.outcome { $0.operation == .remove } else { false }
        }
    }

    func shutdown() async {
        await phone.shutdown()
        await escalator.shutdown()
    }
}

extension MQTTSubscription {
    /// The next message decoding as `T` that satisfies `condition`; others (earlier effects,
    /// answers to hostile commands) are skipped. Fails after a generous 30 s, never hangs.
    @discardableResult
    func firstDecoded<T: Decodable & Sendable>(
        _ type: T.Type, _ what: String, _ condition: @escaping @Sendable (T) -> Bool
    ) async throws -> T {
        try await withTimeout(30, what) {
            for await message in self {
                if let value = try? SafeWalkJSON.decode(T.self, from: message.payload, maxBytes: 1 << 20),
                    condition(value)
                {
                    return value
                }
            }
            throw HarnessError.processFailed("subscription ended before \(what)")
        }
    }
}
