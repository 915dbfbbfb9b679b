import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Synchronization
import TestSupport
import Testing

/// A walker's phone in a story: logged in as the walker, it sends actions, replies and fixes the
/// way the app does, and can keep walking (a fix every 0.3 s, 20 m further north) or keep
/// answering check-ins on its own.
final class Walker: Sendable {
    let id: String
    let phone: MQTTClient
    private let walking = Mutex<Task<Void, Never>?>(nil)
    private let answering = Mutex<Task<Void, Never>?>(nil)
    private let position = Mutex((lat: 30.2849, lon: -97.7341))

    init(_ id: String, on stack: ServiceStack) async throws {
        self.id = id
        phone = try await stack.phone(id)
        try await phone.publish(topic(.presence), payload: Presence.online.payload, retain: true)
    }

    func topic(_ kind: Topic.Kind) throws -> String {
        try #require(Topic(kind, walker: WalkerID(id))).name()
    }

    static var now: Double { Date().timeIntervalSince1970 }

    func send(_ kind: Action.Kind) async throws {
        try await phone.publish(topic(.action), payload: SafeWalkJSON.encode(Action(id: UUID().uuidString, kind: kind)))
    }

    func reply(_ text: String, quick: Bool = true) async throws {
        try await phone.publish(
            topic(.reply), payload: SafeWalkJSON.encode(Reply(text: text, quickReply: quick, tst: Self.now)))
    }

    /// One fix where the walker is now, 5 m accuracy, in our own format.
    func sendFix() async throws {
        let here = position.withLock { $0 }
        let fix = LocationFix(lat: here.lat, lon: here.lon, tst: Self.now, acc: 5)
        try await phone.publish(topic(.fix), payload: SafeWalkJSON.encode(fix))
    }

    /// Moves `metres` north (1° of latitude ≈ 111,195 m).
    func step(metres: Double) {
        position.withLock { $0.lat += metres / 111_195 }
    }

    /// Starts walking: 20 m north every 0.3 s, a fix each time.
    func keepWalking() {
        let task = Task { [self] in
            while !Task.isCancelled {
                step(metres: 20)
                try? await sendFix()
                try? await Task.sleep(for: .milliseconds(300))
            }
        }
        walking.withLock { $0 = task }
    }

    func stopWalking() {
        walking.withLock {
            $0?.cancel(); $0 = nil
        }
    }

    /// Answers every check-in (status `checking`) with "I'm okay 👍", as a walker who is fine.
    func keepAnswering() async throws {
        let statuses = try await phone.subscribe(topic(.status), qos: .atLeastOnce)
        let task = Task { [self] in
            for await message in statuses {
                guard let status = try? SafeWalkJSON.decode(WatchStatus.self, from: message.payload, maxBytes: 1 << 16),
                    status.state == .checking
                else { continue }
                try? await reply("I'm okay 👍")
            }
        }
        answering.withLock { $0 = task }
    }

    func stopAnswering() {
        answering.withLock {
            $0?.cancel(); $0 = nil
        }
    }

    func leave() async {
        stopWalking()
        stopAnswering()
        await phone.shutdown()
    }
}

extension MQTTSubscription {
    /// The next `count` messages decoded as `T` that satisfy `condition` (others are skipped).
    func decoded<T: Decodable & Sendable>(
        _ type: T.Type, count: Int = 1, within seconds: Double = 20,
        where condition: @escaping @Sendable (T) -> Bool = { _ in true }
    ) async throws -> [T] {
        try await withTimeout(seconds, "\(count) \(T.self) on \(filter)") {
            var found: [T] = []
            for await message in self {
                if let value = try? SafeWalkJSON.decode(T.self, from: message.payload, maxBytes: 1 << 20),
                    condition(value)
                {
                    found.append(value)
                    if found.count == count { break }
                }
            }
            return found
        }
    }
}
