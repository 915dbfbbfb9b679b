import Foundation

/// Reads the two ways Google asks a client to wait: the HTTP `Retry-After` header (delta
/// seconds or an HTTP date, RFC 9110 §10.2.3) and `google.rpc.RetryInfo.retryDelay` in the
/// error body (a protobuf Duration such as `"17s"` or `"0.5s"`).
enum RetryAfter {
    /// Longer waits are treated as this; nothing here ever waits that long anyway.
    static let ceiling: Duration = .seconds(3600)

    static func header(_ value: String?, now: Date) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) {
            return seconds >= 0 ? min(.seconds(seconds), ceiling) : nil
        }
        guard let date = httpDate.date(from: value) else { return nil }
        return clamp(date.timeIntervalSince(now))
    }

    static func retryDelay(_ value: String?) -> Duration? {
        guard let value, value.hasSuffix("s"), let seconds = Double(value.dropLast()), seconds.isFinite else {
            return nil
        }
        return clamp(seconds)
    }

    private static func clamp(_ seconds: Double) -> Duration? {
        guard seconds.isFinite else { return nil }
        // Clamp before converting: a hostile "1e300" must not overflow Int64.
        let bounded = min(max(seconds, 0), 3600)
        return .milliseconds(Int64((bounded * 1000).rounded()))
    }

    /// IMF-fixdate, the only date form servers may send; parsing is fixed to English and GMT.
    private static var httpDate: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter
    }
}
