import Foundation
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService

extension WatchdogService {
    /// `refused` on `_desk/result`, for a `_desk/close` that could not be read but whose `id`
    /// could. Published straight away rather than through the outbox: nothing was decided, so
    /// there is nothing to commit first, and the walker an outbox row needs may be unreadable.
    /// A lost answer costs nothing: `web` asks again.
    func refuseDesk(_ id: String) async {
        let result = DeskCloseResult(id: id, ok: false, error: .refused)
        do {
            try await bus.publish(
                Topic.deskResult.name(prefix: options.prefix), payload: try SafeWalkJSON.encode(result),
                qos: .atLeastOnce)
        } catch {
            SwallowedErrors.record(
                error, service: .watchdog, site: "desk_refusal", message: "desk refusal not published; web asks again",
                logger: logger, level: .warning, metadata: ["id": "\(id)"])
        }
    }
}
