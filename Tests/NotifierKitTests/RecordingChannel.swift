import NotifierKit
import SafeWalkCore
import Synchronization
import TestSupport

/// A channel that records every send (and the text it would carry) instead of delivering it:
/// `sms-http` reaches the plan's contacts, `webhook` the one dispatch target.
final class RecordingChannel: NotificationChannel {
    struct Send: Sendable, Hashable {
        var job: String
        var key: String
        var body: String
        var plan: DeliveryPlan
    }

    let name: String
    let publicURL: String?
    private let sends = Mutex<[Send]>([])

    init(_ name: String, publicURL: String? = "https://safewalk.example") {
        self.name = name
        self.publicURL = publicURL
    }

    func targets(for plan: DeliveryPlan) -> [DeliveryTarget] {
        name == "webhook" ? [DeliveryTarget(key: "webhook", display: "webhook")] : DeliveryTarget.contacts(of: plan)
    }

    func send(_ target: DeliveryTarget, plan: DeliveryPlan, event: EscalationEvent) async throws(ChannelFailure) {
        let body =
            name == "webhook" ? plan.message : SMSText.body(plan: plan, phone: target.key, publicURL: publicURL)
        let send = Send(job: event.id, key: target.key, body: body, plan: plan)
        sends.withLock { $0.append(send) }
    }

    /// Every send so far.
    var all: [Send] { sends.withLock { $0 } }

    /// Jobs ids each key was sent, in order.
    func jobs(of key: String) -> [String] { all.filter { $0.key == key }.map(\.job) }

    /// Waits until `job` has been sent to `count` targets (the runner sends on its own tasks).
    func wait(for job: String, count: Int = 1) async throws {
        try await eventually("\(count) sends of \(job)") { all.filter { $0.job == job }.count >= count }
    }
}
