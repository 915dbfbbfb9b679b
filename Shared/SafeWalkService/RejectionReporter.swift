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

    public init(service: ServiceName, prefix: String, bus: any MessageBus, logger: Logger) {
        self.service = service
        self.topic = Topic.rejected(service).name(prefix: prefix)
        self.bus = bus
        self.logger = logger
    }

    /// Records a rejection. Never throws: failing to report must not stop the service.
    /// - Parameters:
    ///   - reason: a stable code (`FixRejection.code`, `PayloadError.code`, ...), used as metric label.
    ///   - topicKind: which kind of topic it came in on (`fix`, `owntracks`, ...).
    ///   - walker: the walker id if it was valid.
    public func reject(reason: String, topicKind: TopicKind, walker: WalkerID? = nil, now: Double) async {
        counts.withLock { $0[reason, default: 0] += 1 }
        Counter(label: "safewalk_rejections_total",
                dimensions: [("service", service.rawValue), ("reason", reason)]).increment()
        logger.warning("input rejected", metadata: [
            "reason": "\(reason)", "topicKind": "\(topicKind.rawValue)", "walker": "\(walker?.rawValue ?? "-")"])
        let report = Rejection(service: service, reason: reason, topicKind: topicKind, walker: walker, at: now)
        guard let payload = try? SafeWalkJSON.encode(report) else { return }
        do {
            try await bus.publish(MQTTMessage(topic: topic, payload: payload, qos: .atMostOnce))
        } catch {
            logger.debug("rejection report not published", metadata: ["error": "\(error)"])
        }
    }

    /// Rejections so far, by reason code.
    public var countsByReason: [String: Int] { counts.withLock { $0 } }
    public var total: Int { counts.withLock { $0.values.reduce(0, +) } }
}
