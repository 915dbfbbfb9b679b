import Logging
import SafeWalkCore
import SafeWalkService
import Synchronization
import Testing

/// A failed write or encode the service carries on after is logged with its metadata (and
/// counted as `safewalk_swallowed_errors_total{service,site}`), never silent.
@Suite("Swallowed errors are logged")
struct SwallowedErrorsTests {
    struct Failure: Error {}

    final class Capture: Sendable {
        let lines = Mutex<[(Logger.Level, String, Logger.Metadata)]>([])
    }

    struct Handler: LogHandler {
        let capture: Capture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            capture.lines.withLock { $0.append((event.level, "\(event.message)", event.metadata ?? [:])) }
        }
    }

    @Test func theErrorIsLoggedWithTheSiteAndTheCallersMetadata() {
        let capture = Capture()
        let logger = Logger(label: "test") { _ in Handler(capture: capture) }
        SwallowedErrors.record(
            Failure(), service: .notifier, site: "ledger_finish", message: "ledger write failed", logger: logger,
            metadata: ["escalation": "e1"])
        let lines = capture.lines.withLock { $0 }
        #expect(lines.count == 1)
        #expect(lines.first?.0 == .error)
        #expect(lines.first?.1 == "ledger write failed")
        #expect(lines.first?.2["site"] == "ledger_finish")
        #expect(lines.first?.2["escalation"] == "e1")
        #expect(lines.first?.2["error"] == "Failure()")
    }
}
