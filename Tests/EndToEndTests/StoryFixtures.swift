import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// The fakes a story may need, and the stack wired to them.
struct StoryWorld: Sendable {
    let stack: ServiceStack
    let gateway: FakeSMSGateway
    let gemini: FakeGeminiServer

    /// - Parameter overrides: settings for this story only (e.g. a longer no-reply threshold).
    static func start(_ overrides: [String: String] = [:]) async throws -> StoryWorld {
        let gateway = try await FakeSMSGateway()
        let gemini = try await FakeGeminiServer.start()
        let environment = gateway.environment.merging([
            "SAFEWALK_CHANNELS": "device,log,sms-http",
            "SAFEWALK_CONTACTS_SETTLE": "0.5",
            "SAFEWALK_NOTIFY_BACKOFF": "0.2",
            "GEMINI_API_KEY": gemini.apiKey,
            "SAFEWALK_GEMINI_BASE_URL": gemini.baseURL,
            "SAFEWALK_GEMINI_TIMEOUT": "5",
        ]) { $1 }.merging(overrides) { $1 }
        return StoryWorld(
            stack: try await ServiceStack.startForStories(environment: environment), gateway: gateway, gemini: gemini)
    }

    func stop() async {
        await stack.stop()
        await gateway.shutdown()
        await gemini.shutdown()
    }

    /// What the operator sees of one walker's `channel`.
    func watch(_ walker: String, _ kind: Topic.Kind) async throws -> MQTTSubscription {
        try await stack.observer.subscribe(
            try #require(Topic(kind, walker: WalkerID(walker))).name(), qos: .atLeastOnce)
    }

    /// Adds contacts over MQTT as the phone does, and waits for each result.
    func addContacts(_ contacts: [(name: String, phone: String)], for walker: Walker) async throws -> [ContactResult] {
        let results = try await walker.phone.subscribe(walker.topic(.contactsResult), qos: .atLeastOnce)
        for contact in contacts {
            try await walker.phone.publish(
                walker.topic(.contactsAdd),
                payload: SafeWalkJSON.encode(ContactAdd(name: contact.name, phone: contact.phone)))
        }
        return try await results.decoded(ContactResult.self, count: contacts.count)
    }
}

extension ContactResult {
    var isOK: Bool {
        if case .ok = outcome { return true }
        return false
    }
}
