import Foundation
import SafeWalkCore

/// A group `sms:` link and what went into it.
public struct GroupSMS: Hashable, Sendable {
    /// `sms:+15124714441,+17375550100?&body=…`, or nil when no number was dialable.
    public var url: String?
    /// The normalised numbers included, in input order, without duplicates.
    public var recipients: [String]
    /// Each undialable input with its reason, in input order.
    public var skipped: [Skipped]

    public struct Skipped: Hashable, Sendable {
        public var input: String
        public var reason: UndialableReason
    }
}

/// The URLs an escalation offers: call, text, map. All strings, built byte-for-byte here.
public enum EscalationLinks {
    /// `tel:` + the normalised number, or nil if it is not dialable.
    public static func tel(_ raw: String, minimumDigits: Int = 7) -> String? {
        PhoneNumber.normalise(raw, minimumDigits: minimumDigits).dialable.map { "tel:" + $0 }
    }

    /// One `sms:` link to every dialable number with the message pre-filled.
    ///
    /// Uses `sms:N1,N2?&body=TEXT`: iOS reads the body after `&`, Android after `?`, and
    /// both accept the comma-separated recipient list. One undialable number never removes
    /// the others; if none is dialable there is no link, and `skipped` says why.
    public static func groupSMS(to phones: [String], body: String) -> GroupSMS {
        var recipients: [String] = []
        var skipped: [GroupSMS.Skipped] = []
        for phone in phones {
            switch PhoneNumber.normalise(phone) {
            case .dialable(let number):
                if !recipients.contains(number) { recipients.append(number) }
            case .undialable(let reason):
                skipped.append(GroupSMS.Skipped(input: phone, reason: reason))
            }
        }
        let url =
            recipients.isEmpty
            ? nil : "sms:" + recipients.joined(separator: ",") + "?&body=" + PercentEncoding.encode(body)
        return GroupSMS(url: url, recipients: recipients, skipped: skipped)
    }

    /// `https://maps.google.com/?q=LAT,LON` with 6 decimal places (about 0.1 m), or nil for
    /// a non-finite or out-of-range coordinate.
    public static func maps(_ coordinate: Coordinate) -> String? {
        guard coordinate.lat.isFinite, coordinate.lon.isFinite,
            (-90.0...90.0).contains(coordinate.lat), (-180.0...180.0).contains(coordinate.lon)
        else { return nil }
        return "https://maps.google.com/?q=\(fixed6(coordinate.lat)),\(fixed6(coordinate.lon))"
    }

    private static func fixed6(_ value: Double) -> String {
        // "%f" in the C locale always uses "." whatever the process locale.
        let text = String(format: "%.6f", value)
        return text == "-0.000000" ? "0.000000" : text
    }
}
