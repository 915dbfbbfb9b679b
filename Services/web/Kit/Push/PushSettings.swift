import Foundation
import SafeWalkService

/// Web Push's settings (docs/services/web.md, "Web Push").
public struct PushSettings: Sendable {
    /// The push services of today's browsers: Chrome, Edge's Chromium, Samsung Internet and Opera
    /// (FCM), Firefox (autopush), Safari (APNs' Web Push), legacy Edge (WNS).
    public static let defaultServices = [
        "fcm.googleapis.com", "android.googleapis.com", "updates.push.services.mozilla.com", "push.apple.com",
        "notify.windows.com",
    ]

    /// `SAFEWALK_PUSH_SUBJECT` [`mailto:safewalk@localhost`]: the VAPID `sub`, a `mailto:` or
    /// `https:` address where a push service's operator can reach whoever runs SafeWalk.
    public var subject = "mailto:safewalk@localhost"
    /// `SAFEWALK_PUSH_SERVICES` [the list above]: hosts (and their subdomains) a subscription's
    /// endpoint may name, comma-separated; `*` allows any https host that is a name, not an
    /// address. web posts to whatever endpoint a signed-in user gives it, so without a list a user
    /// could make web send requests into its own network.
    public var services: [String]? = PushSettings.defaultServices
    /// `SAFEWALK_PUSH_ALLOW_LOOPBACK_HTTP` [false]: also accept `http://127.0.0.1…`/`localhost`
    /// endpoints (tests, a fake push service). Never in production.
    public var allowLoopbackHTTP = false
    /// `SAFEWALK_PUSH_SUBSCRIPTIONS` [10]: subscriptions kept per account (a browser or phone each);
    /// the oldest go.
    public var perAccount = 10
    /// `SAFEWALK_PUSH_QUEUE` [1000]: pushes waiting to be sent before new ones are dropped (and
    /// counted), so a slow push service never holds up the broker's reader.
    public var queueLimit = 1_000
    /// `SAFEWALK_PUSH_ATTEMPTS` [4]: tries per message on 429, 5xx or a network error.
    public var attempts = 4
    /// The first retry's delay, doubled for each later one (or the service's `Retry-After`, up
    /// to ``maxRetryDelay``).
    public var retryDelay: Duration = .seconds(2)
    public var maxRetryDelay: Duration = .seconds(60)
    /// How long one request to a push service may take.
    public var requestTimeout: Duration = .seconds(10)
    /// Pushes sent at once.
    public var concurrency = 4

    public init() {}

    public init(environment env: EnvironmentReader) throws(ConfigurationError) {
        subject = env.string("SAFEWALK_PUSH_SUBJECT", default: subject)
        guard Self.isSubject(subject) else {
            throw .invalid(name: "SAFEWALK_PUSH_SUBJECT", value: subject, expected: "a mailto: or https: URL")
        }
        let services = env.list("SAFEWALK_PUSH_SERVICES", default: Self.defaultServices)
        self.services = services == ["*"] ? nil : services.map { $0.lowercased() }
        allowLoopbackHTTP = try env.boolean("SAFEWALK_PUSH_ALLOW_LOOPBACK_HTTP", default: false)
        perAccount = try env.integer("SAFEWALK_PUSH_SUBSCRIPTIONS", default: perAccount, in: 1...100)
        queueLimit = try env.integer("SAFEWALK_PUSH_QUEUE", default: queueLimit, in: 1...1_000_000)
        attempts = try env.integer("SAFEWALK_PUSH_ATTEMPTS", default: attempts, in: 1...20)
    }

    static func isSubject(_ text: String) -> Bool {
        guard text.count <= 256, !text.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } ?? false })
        else { return false }
        return (text.hasPrefix("mailto:") && text.count > 7) || (text.hasPrefix("https://") && text.count > 8)
    }
}
