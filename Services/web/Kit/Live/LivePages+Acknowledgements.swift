import Foundation
import SafeWalkCore

extension LivePages {
    /// Sends "I'm on it" to the notifier and waits for its answer, at most
    /// ``LiveSettings/acknowledgementWait``. A yes for a page shows on it at once.
    public func acknowledge(_ request: AcknowledgementRequest) async throws -> AcknowledgementResult {
        let payload = try SafeWalkJSON.encode(request)
        let topic = Topic.acknowledgementRequest.name(prefix: prefix)
        let result = try await Deadline.run(settings.acknowledgementWait, clock: ContinuousClock()) {
            [answers, bus] in
            try await answers.wait(for: request.id) {
                try await bus.publish(topic, payload: payload, qos: .atLeastOnce)
            }
        }
        if result.ok, let digest = request.page, let by = result.by {
            let walker = board.withLock { board in
                board.noteAcknowledged(digest, by: by)
                return board.view(digest)?.page.walker
            }
            if let walker { watchers.changed(walker) }
        }
        logger.info(
            "acknowledgement answered",
            metadata: ["via": "\(request.via)", "ok": "\(result.ok)", "error": "\(result.error?.rawValue ?? "-")"])
        return result
    }

    /// Hands the SMS gateway's report on one text to the notifier.
    public func report(_ receipt: GatewayReceipt) async throws {
        try await bus.publish(
            Topic.gatewayReceipt.name(prefix: prefix), payload: try SafeWalkJSON.encode(receipt), qos: .atLeastOnce)
    }
}
