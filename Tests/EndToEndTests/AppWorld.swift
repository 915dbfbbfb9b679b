import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// The stack the walker's app stories run on: as production runs it with accounts (the secured
/// broker with dynamic security, broker-admin, web serving the app, the five services), with
/// thresholds long enough that nothing escalates unless the story asks for it, and each story's
/// own overrides. The operator's client reads what the services publish, so a story checks what
/// the page did by its effect on the topics, not by the page's word.
struct AppWorld: Sendable {
    let stack: ServiceStack

    /// Nothing timed fires within a story unless it shortens its own threshold. The hold
    /// heartbeat stays the production 3 s: the page beats every 2 s.
    static let quiet = [
        "SAFEWALK_CHECKIN_INTERVAL": "600", "SAFEWALK_NO_REPLY_AFTER": "1200", "SAFEWALK_NO_MOVEMENT_AFTER": "1200",
        "SAFEWALK_OFFLINE_GRACE": "600", "SAFEWALK_MOVEMENT_METERS": "5", "SAFEWALK_HOLD_HEARTBEAT": "3",
        "SAFEWALK_CHANNELS": "device,log", "SAFEWALK_CONTACTS_SETTLE": "0.5", "SAFEWALK_NOTIFY_BACKOFF": "0.2",
        "SAFEWALK_MAP_TILES": "none",
    ]

    /// Runs `story` on a fresh stack and stops it afterwards; a failing story carries the logs.
    static func run(_ overrides: [String: String] = [:], _ story: (AppWorld) async throws -> Void) async throws {
        try await ServiceStack.withAccounts(environment: quiet.merging(overrides) { $1 }) { stack in
            try await story(AppWorld(stack: stack))
        }
    }

    /// The app's address: web's root.
    var appURL: String { stack.publicURL + "/" }

    /// What the operator sees on `walker`'s topic of `kind`, from now (and the retained message).
    func watch(_ walker: String, _ kind: Topic.Kind) async throws -> MQTTSubscription {
        try await stack.observer.subscribe(
            try #require(Topic(kind, walker: WalkerID(walker))).name(), qos: .atLeastOnce)
    }

    /// A new phone with the app open, signed up as `name` through the app's own form.
    func signedUpPage(_ name: String, location: AppPage.Location = .at(30.2849, -97.7341)) async throws -> AppPage {
        let page = try await AppPage.open(self, location: location)
        do {
            try await page.signUp(name)
        } catch {
            await page.close()
            throw error
        }
        return page
    }
}

extension MQTTSubscription {
    /// The next message whose JSON object satisfies `condition`, as that object.
    func json(
        within seconds: Double = 20, _ what: String = "a message",
        where condition: @escaping @Sendable ([String: Any]) -> Bool = { _ in true }
    ) async throws -> [String: Any] {
        let message = try await withTimeout(seconds, "\(what) on \(filter)") { () -> MQTTMessage? in
            for await message in self {
                if let object = Self.object(message.payload), condition(object) { return message }
            }
            return nil
        }
        guard let message, let object = Self.object(message.payload) else {
            throw HarnessError.timedOut("\(what) on \(filter): the subscription ended")
        }
        return object
    }

    /// Whatever arrived so far as JSON objects (ends the subscription).
    func drainedJSON() async -> [[String: Any]] {
        await drained().compactMap { Self.object($0.payload) }
    }

    private static func object(_ payload: Data) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any]
    }
}
