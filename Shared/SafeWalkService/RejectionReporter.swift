import Foundation
import Logging
import Metrics
import SafeWalkCore
import SafeWalkMQTT
import Synchronization

/// Every rejected input goes through here: a warning log with the reason, a counter per reason,
/// and a report on `{prefix}/_rejected/{service}` for operators. The report carries the reason,
/// topic kind and walker, never the payload, which may hold another walker's data.
public final class RejectionReporter: Sendable {
    private let service: ServiceName
    private let topic: String
    private let bus: any MessageBus
    private let logger: Logger
    private let counts = Mutex<[String: Int]>([:])
    private let prefix: String
    private let deviceAnswers: Counter

    public init(service: ServiceName, prefix: String, bus: any MessageBus, logger: Logger) {
        self.service = service
        self.topic = Topic.rejected(service).name(prefix: prefix)
        self.prefix = prefix
        deviceAnswers = Counter(
            label: "safewalk_rejections_answered_total", dimensions: [("service", service.rawValue)])
        self.bus = bus
        self.logger = logger
    }

    /// Records a rejection. Never throws: failing to report must not stop the service.
    /// - Parameters:
    ///   - reason: a stable code (`FixRejection.code`, `PayloadError.code`, ...), used as metric label.
    ///   - topicKind: which kind of topic it came in on (`fix`, `owntracks`, ...).
    ///   - walker: the walker id if it was valid.
    ///   - id: the action id, when one was readable, for the device's answer.
    public func reject(
        reason: String, topicKind: Topic.Kind, walker: WalkerID? = nil, id: String? = nil,
        now: Double
    ) async {
        counts.withLock { $0[reason, default: 0] += 1 }
        Counter(
            label: "safewalk_rejections_total",
            dimensions: [("service", service.rawValue), ("reason", reason)]
        ).increment()
        logger.warning(
            "input rejected",
            metadata: [
                "reason": "\(reason)", "topicKind": "\(topicKind.rawValue)", "walker": "\(walker?.rawValue ?? "-")",
            ])
        let report = Rejection(service: service, reason: reason, topicKind: topicKind, walker: walker, at: now)
        do {
            let payload = try SafeWalkJSON.encode(report)
            try await bus.publish(MQTTMessage(topic: topic, payload: payload, qos: .atMostOnce))
        } catch {
            // The operators' report is best effort (QoS 0); the log line above and the counter stand.
            SwallowedErrors.record(
                error, service: service, site: "rejection_report", message: "rejection report not published",
                logger: logger, level: .warning, metadata: ["reason": "\(reason)"])
        }
        await answerDevice(reason: reason, topicKind: topicKind, walker: walker, id: id)
    }

    /// Tells the device that sent the input what was refused, on its own `{w}/rejected`, so a
    /// client with a bug learns of it instead of failing silently. Only for the walker's own
    /// input topics (the walker is the topic's, never the payload's).
    private func answerDevice(reason: String, topicKind: Topic.Kind, walker: WalkerID?, id: String?) async {
        guard let walker, InputRefusal.deviceInputs.contains(topicKind) else { return }
        do {
            let payload = try SafeWalkJSON.encode(InputRefusal(kind: topicKind, reason: reason, id: id))
            let deviceTopic = Topic.inputRejected(walker).name(prefix: prefix)
            try await bus.publish(MQTTMessage(topic: deviceTopic, payload: payload, qos: .atLeastOnce))
            deviceAnswers.increment()
        } catch {
            SwallowedErrors.record(
                error, service: service, site: "rejection_answer", message: "rejection not answered to the device",
                logger: logger, level: .warning, metadata: ["walker": "\(walker)", "reason": "\(reason)"])
        }
    }

    /// Rejections so far, by reason code.
    public var countsByReason: [String: Int] { counts.withLock { $0 } }
    public var total: Int { counts.withLock { $0.values.reduce(0, +) } }
}
