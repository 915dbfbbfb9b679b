import Logging
import Metrics
import SafeWalkCore

/// For a failed write or encode the service deliberately carries on after (the caller has a
/// fallback, or the work is best effort): it is never silent. Logs the error with the caller's
/// metadata and counts it as `safewalk_swallowed_errors_total{service,site}`, where `site` is a
/// stable name for the place in the code (`rejection_report_encode`, `ledger_finish`, ...).
public enum SwallowedErrors {
    public static func record(
        _ error: any Error, service: ServiceName, site: String, message: Logger.Message, logger: Logger,
        level: Logger.Level = .error, metadata: Logger.Metadata = [:]
    ) {
        Counter(label: "safewalk_swallowed_errors_total", dimensions: [("service", service.rawValue), ("site", site)])
            .increment()
        logger.log(
            level: level, message, metadata: metadata.merging(["error": "\(error)", "site": "\(site)"]) { $1 })
    }
}
