import SafeWalkCore

/// The `mm:ss` countdown shown on the device.
public enum Countdown {
    /// The largest number of whole minutes shown; longer times show as `9999:59`.
    public static let maxMinutes = 9999

    /// Formats seconds remaining as `mm:ss`.
    ///
    /// - Rounds *up* to the whole second, so the display never reads `00:00` while time
    ///   remains (59.4 s → `01:00`, 0.001 s → `00:01`).
    /// - Zero, negative and -∞ → `00:00`; NaN and +∞ → `--:--` (unknown, not "none left").
    /// - Minutes are not wrapped at 60 or clamped at 99: 2 hours → `120:00`. Beyond
    ///   ``maxMinutes`` the display clamps to `9999:59`.
    public static func format(remaining seconds: Double) -> String {
        if seconds.isNaN || seconds == .infinity { return "--:--" }
        if seconds <= 0 { return "00:00" }
        let cap = Double(maxMinutes * 60 + 59)
        let whole = Int(min(seconds.rounded(.up), cap))
        return pad(whole / 60) + ":" + pad(whole % 60)
    }

    /// Formats the time from `now` until `deadline`.
    public static func format(until deadline: EpochSeconds, now: EpochSeconds) -> String {
        format(remaining: deadline - now)
    }

    private static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
