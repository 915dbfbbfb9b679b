import Foundation
import SafeWalkCore
import SafeWalkService

/// The notifier's own settings (`SAFEWALK_*`), read once at start-up; a bad value stops the
/// service with a message naming the variable (exit 2), never a silent default.
public struct NotifierSettings: Sendable {
    public static let knownChannels = ["device", "log", "sms-http", "webhook"]

    public var channels: [String]
    public var emergency: EmergencyNumber
    public var timeZone: TimeZone
    public var retry: RetryPolicy
    /// How long after subscribing an escalation may wait for its walker's retained contacts.
    public var contactsSettle: Double
    public var sms: SMSGatewayConfiguration?
    public var webhook: (url: String, secret: String, timeout: Double)?
    /// The escalation ladder's waits (`SAFEWALK_LADDER_*`).
    public var ladder: LadderSettings
    /// The ladder tier at which the webhook (the dispatch centre) is told.
    public var webhookTier: LadderTier
    /// Where contacts' live pages are served (`{public}/i/{token}`); without it texts carry no link.
    public var publicURL: String?
    /// The monitoring desk's name as contacts and walkers read it (`SAFEWALK_DESK_NAME`, shared
    /// with `web`): an unusable value falls back to "the campus desk", as `web`'s does, so both
    /// always name the same desk.
    public var deskName: String

    public init(_ env: EnvironmentReader) throws(ConfigurationError) {
        channels = env.list("SAFEWALK_CHANNELS", default: ["device", "log"]).map { $0.lowercased() }
        for name in channels where !Self.knownChannels.contains(name) {
            throw .invalid(
                name: "SAFEWALK_CHANNELS", value: name,
                expected: "a comma-separated list of " + Self.knownChannels.joined(separator: ", "))
        }
        let number = env.string("SAFEWALK_EMERGENCY_NUMBER", default: "5124714441")
        guard PhoneNumber.normalise(number, minimumDigits: 3).dialable != nil else {
            throw .invalid(name: "SAFEWALK_EMERGENCY_NUMBER", value: number, expected: "a dialable number (3+ digits)")
        }
        emergency = EmergencyNumber(
            label: env.string("SAFEWALK_EMERGENCY_LABEL", default: "Call UT Police"), number: number)
        if let zone = env.string("SAFEWALK_TIME_ZONE") {
            guard let parsed = TimeZone(identifier: zone) else {
                throw .invalid(
                    name: "SAFEWALK_TIME_ZONE", value: zone, expected: "an IANA time zone such as America/Chicago")
            }
            timeZone = parsed
        } else {
            timeZone = TimeZone.current
        }
        retry = RetryPolicy(
            maxAttempts: try env.integer(
                "SAFEWALK_NOTIFY_MAX_ATTEMPTS", default: RetryPolicy.defaultMaxAttempts, in: 1...100),
            baseDelay: try env.seconds("SAFEWALK_NOTIFY_BACKOFF", default: 1),
            maxDelay: try env.seconds("SAFEWALK_NOTIFY_BACKOFF_MAX", default: 60))
        contactsSettle = try env.seconds("SAFEWALK_CONTACTS_SETTLE", default: 2)
        if channels.contains("sms-http") { sms = try Self.sms(env) }
        if channels.contains("webhook") {
            guard let url = env.string("SAFEWALK_WEBHOOK_URL") else {
                throw .missing(name: "SAFEWALK_WEBHOOK_URL", why: "the webhook channel is enabled")
            }
            guard let secret = env.values["SAFEWALK_WEBHOOK_SECRET"], !secret.isEmpty else {
                throw .missing(name: "SAFEWALK_WEBHOOK_SECRET", why: "webhook bodies are signed")
            }
            webhook = (url, secret, try env.seconds("SAFEWALK_WEBHOOK_TIMEOUT", default: 10))
        }
        ladder = try Self.ladder(env)
        let tier = try env.integer("SAFEWALK_WEBHOOK_TIER", default: 3, in: 1...3)
        webhookTier = LadderTier(rawValue: tier) ?? .dispatch
        publicURL = try Self.publicURL(env)
        deskName = DeskName.from(env.string(DeskName.environmentKey))
    }

    static func ladder(_ env: EnvironmentReader) throws(ConfigurationError) -> LadderSettings {
        func wait(_ name: String, _ fallback: Double) throws(ConfigurationError) -> Duration {
            // `seconds` refuses 0: a zero wait would make a step due again at once, for ever.
            .milliseconds(Int64(try env.seconds(name, default: fallback) * 1000))
        }
        return LadderSettings(
            tierTwoWait: [
                .red: try wait("SAFEWALK_LADDER_TIER2_RED", 120), .amber: try wait("SAFEWALK_LADDER_TIER2_AMBER", 600),
            ],
            tierThreeWait: [
                .red: try wait("SAFEWALK_LADDER_TIER3_RED", 120), .amber: try wait("SAFEWALK_LADDER_TIER3_AMBER", 600),
            ],
            reminderInterval: try wait("SAFEWALK_LADDER_REMINDER", 300),
            resumeAfterAcknowledgement: try wait("SAFEWALK_LADDER_RESUME", 600))
    }

    static func publicURL(_ env: EnvironmentReader) throws(ConfigurationError) -> String? {
        guard let raw = env.string("SAFEWALK_PUBLIC_URL") else { return nil }
        guard raw.hasPrefix("http://") || raw.hasPrefix("https://"), !raw.contains("?"), !raw.contains("#") else {
            throw .invalid(
                name: "SAFEWALK_PUBLIC_URL", value: raw,
                expected: "an http:// or https:// base URL such as https://safewalk.example")
        }
        return raw.hasSuffix("/") ? String(raw.dropLast()) : raw
    }

    static func sms(_ env: EnvironmentReader) throws(ConfigurationError) -> SMSGatewayConfiguration {
        guard let url = env.string("SAFEWALK_SMS_URL") else {
            throw .missing(name: "SAFEWALK_SMS_URL", why: "the sms-http channel is enabled")
        }
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            throw .invalid(name: "SAFEWALK_SMS_URL", value: url, expected: "an http:// or https:// URL")
        }
        var format: SMSGatewayConfiguration.Format?
        if let raw = env.string("SAFEWALK_SMS_FORMAT") {
            guard let parsed = SMSGatewayConfiguration.Format(rawValue: raw.lowercased()) else {
                throw .invalid(name: "SAFEWALK_SMS_FORMAT", value: raw, expected: "form or json")
            }
            format = parsed
        }
        return SMSGatewayConfiguration(
            url: url, method: env.string("SAFEWALK_SMS_METHOD", default: "POST"),
            headers: try headers(env.values["SAFEWALK_SMS_HEADERS"] ?? ""),
            user: env.string("SAFEWALK_SMS_USER"), password: env.values["SAFEWALK_SMS_PASSWORD"],
            template: env.values["SAFEWALK_SMS_TEMPLATE"].flatMap { $0.isEmpty ? nil : $0 }
                ?? "To={phone}&Body={message}",
            format: format, timeout: try env.seconds("SAFEWALK_SMS_TIMEOUT", default: 10))
    }

    /// `Name: value` per line (a literal `\n` also separates, for one-line env files).
    static func headers(_ raw: String) throws(ConfigurationError) -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        for line in raw.replacingOccurrences(of: "\\n", with: "\n").split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue }
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
                // The value may be a secret: name the variable, never echo it.
                throw .invalid(name: "SAFEWALK_SMS_HEADERS", value: "(hidden)", expected: "lines of 'Name: value'")
            }
            result.append(
                (
                    String(text[..<colon]).trimmingCharacters(in: .whitespaces),
                    String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                ))
        }
        return result
    }
}
