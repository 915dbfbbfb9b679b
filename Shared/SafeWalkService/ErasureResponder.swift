import Foundation
import Logging
import Metrics
import SafeWalkCore
import SafeWalkMQTT
import ServiceLifecycle

/// One service's part of deleting an account: reads `EraseRequest`s on
/// `_accounts/erase/{service}` (only `web` may publish there), has the service erase what it keeps
/// about the walker, and answers `EraseReport` on `_accounts/erased/{service}`
/// (docs/CONTRACT.md, "Accounts").
///
/// The service's own `erase` does the work and must be idempotent: `web` asks again until every
/// service has reported ok (after a lost report, a restart, a failed write), and a walker with
/// nothing stored is simply reported erased.
public struct ErasureResponder: Service {
    /// What a service does for one walker: nil when everything is gone, else why not.
    public typealias Erase = @Sendable (WalkerID) async -> EraseReport.Failure?

    let service: ServiceName
    let bus: any MessageBus
    let prefix: String
    let subscription: MQTTSubscription
    let reporter: RejectionReporter
    let logger: Logger
    let erase: Erase
    /// This instance's partition of the walkers, if it is one of several: it answers only for
    /// its own walkers and the others stay silent (``WalkerPartition/answers(_:for:)``).
    let partition: WalkerPartition?
    let now: @Sendable () -> EpochSeconds

    /// - Parameter subscription: made with ``subscribe(bus:prefix:service:)`` before the service
    ///   announces `online`.
    public init(
        service: ServiceName, bus: any MessageBus, prefix: String, subscription: MQTTSubscription,
        reporter: RejectionReporter, logger: Logger,
        now: @escaping @Sendable () -> EpochSeconds = { Date().timeIntervalSince1970 },
        partition: WalkerPartition? = nil,
        erase: @escaping Erase
    ) {
        self.service = service
        self.bus = bus
        self.prefix = prefix
        self.subscription = subscription
        self.reporter = reporter
        self.logger = logger
        self.now = now
        self.erase = erase
        self.partition = partition
    }

    /// `_accounts/erase/{service}` at QoS 1.
    public static func subscribe(bus: any MessageBus, prefix: String, service: ServiceName) async throws
        -> MQTTSubscription
    {
        try await bus.subscribe(Topic.accountErase(service).name(prefix: prefix), qos: .atLeastOnce)
    }

    public func run() async throws {
        for await message in subscription.cancelOnGracefulShutdown() {
            await handle(message)
        }
    }

    /// Largest request read: an id and a walker id, with room to spare.
    public static let maxPayloadBytes = 1_024

    /// Handles one request; a report that cannot be published is left for `web`'s next ask.
    public func handle(_ message: MQTTMessage) async {
        let request: EraseRequest
        do {
            request = try SafeWalkJSON.decode(EraseRequest.self, from: message.payload, maxBytes: Self.maxPayloadBytes)
        } catch {
            await reporter.reject(reason: error.code, topicKind: .accountErase, now: now())
            return
        }
        guard WalkerPartition.answers(partition, for: request.user) else { return }
        let failure = await erase(request.user)
        Counter(
            label: "safewalk_erasures_total",
            dimensions: [("service", service.rawValue), ("outcome", failure?.rawValue ?? "erased")]
        ).increment()
        logger.notice(
            failure == nil ? "walker erased" : "walker not erased",
            metadata: [
                "walker": "\(request.user)", "erasure": "\(request.id)", "why": "\(failure?.rawValue ?? "-")",
            ])
        let report = EraseReport(id: request.id, user: request.user, ok: failure == nil, error: failure)
        do {
            try await bus.publish(
                Topic.accountErased(service).name(prefix: prefix), payload: try SafeWalkJSON.encode(report),
                qos: .atLeastOnce)
        } catch {
            SwallowedErrors.record(
                error, service: service, site: "erase_report", message: "erasure report not published; web asks again",
                logger: logger, level: .warning, metadata: ["walker": "\(request.user)"])
        }
    }
}
