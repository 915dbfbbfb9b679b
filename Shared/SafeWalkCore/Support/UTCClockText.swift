import Foundation

/// A time as people read it on a page or in an inbox event that carries its own `at`: `14:05 UTC`
/// (an app or the page's script shows the reader's own time zone from `at`).
public enum UTCClockText {
    public static func hoursAndMinutes(_ at: EpochSeconds) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: Date(timeIntervalSince1970: at)) + " UTC"
    }
}
