import Foundation
import SafeWalkService

/// web's own settings (docs/services/web.md has the table); the shared ones (broker, data
/// directory, logging, metrics) come from ``ServiceConfiguration``.
public struct WebSettings: Sendable {
    /// `SAFEWALK_HTTP_HOST` [127.0.0.1], `SAFEWALK_HTTP_PORT` [8080].
    public var host = "127.0.0.1"
    public var port = 8080
    /// `SAFEWALK_TLS_CERT` and `SAFEWALK_TLS_KEY` (PEM files): HTTPS when both are set.
    public var tls: TLSFiles?
    /// `SAFEWALK_TRUSTED_PROXY`: the proxies whose `X-Forwarded-For` is believed (comma-separated).
    public var trustedProxies: Set<String> = []
    /// `SAFEWALK_PUBLIC_MQTT_HOST` [localhost], `_PORT` [8883], `_TLS` [true]: what the OwnTracks
    /// configuration tells phones.
    public var publicBroker = PublicBroker(host: "localhost")
    /// `SAFEWALK_HTTP_MAX_BODY` [16384]: larger bodies are refused with 413.
    public var bodyLimit = JSONBody.defaultLimit
    /// `SAFEWALK_SESSION_LIFETIME` [43200 s = 12 h].
    public var sessionLifetime: TimeInterval = 12 * 3600
    /// Sessions kept per account; the oldest go.
    public var sessionsPerAccount = 20
    /// `SAFEWALK_RATE_SIGNUP_PER_ADDRESS` [5/600], `SAFEWALK_RATE_SIGNUP_PER_ACCOUNT` [5/600],
    /// `SAFEWALK_RATE_SIGNIN_PER_ADDRESS` [20/60], `SAFEWALK_RATE_SIGNIN_PER_ACCOUNT` [10/300],
    /// `SAFEWALK_RATE_DEVICE_SETUP_PER_ACCOUNT` [10/600]: attempts per seconds.
    public var limits = RateLimits()
    /// `SAFEWALK_PASSWORD_ROUNDS` [210000, never fewer].
    public var passwordRounds = PasswordHasher.defaultRounds
    /// `SAFEWALK_PASSWORD_QUEUE` [32]: password hashes queued or running before 503 busy.
    public var passwordQueue = 32
    /// `SAFEWALK_BROKER_ADMIN_WAIT` [5 s]: the longest wait for broker-admin or the watchdog.
    public var commandWait: Duration = .seconds(5)
    /// `SAFEWALK_ERASE_WAIT` [10 s]: how long a deletion request waits for every service before
    /// answering 202 and carrying on in the background.
    public var eraseWait: Duration = .seconds(10)
    /// `SAFEWALK_ERASE_RETRY` [5 s]: how often unfinished erasures are asked again.
    public var eraseRetry: Duration = .seconds(5)
    /// The live pages and the SMS gateway (``LiveSettings``).
    public var live = LiveSettings()
    /// Web Push (``PushSettings``).
    public var push = PushSettings()
    /// The walker's app API (``AppSettings``).
    public var app = AppSettings()
    /// The monitoring desk (``DeskSettings``).
    public var desk = DeskSettings()

    public struct TLSFiles: Hashable, Sendable {
        public var certificate: String
        public var key: String

        public init(certificate: String, key: String) {
            self.certificate = certificate
            self.key = key
        }
    }

    public init() {}

    public init(environment env: EnvironmentReader) throws(ConfigurationError) {
        host = env.string("SAFEWALK_HTTP_HOST", default: host)
        port = try env.integer("SAFEWALK_HTTP_PORT", default: port, in: 1...65_535)
        switch (env.string("SAFEWALK_TLS_CERT"), env.string("SAFEWALK_TLS_KEY")) {
        case (let certificate?, let key?): tls = TLSFiles(certificate: certificate, key: key)
        case (nil, nil): tls = nil
        case (nil, _): throw .missing(name: "SAFEWALK_TLS_CERT", why: "SAFEWALK_TLS_KEY is set")
        case (_, nil): throw .missing(name: "SAFEWALK_TLS_KEY", why: "SAFEWALK_TLS_CERT is set")
        }
        trustedProxies = Set(env.list("SAFEWALK_TRUSTED_PROXY", default: []))
        publicBroker = PublicBroker(
            host: env.string("SAFEWALK_PUBLIC_MQTT_HOST", default: "localhost"),
            port: try env.integer("SAFEWALK_PUBLIC_MQTT_PORT", default: 8883, in: 1...65_535),
            tls: try env.boolean("SAFEWALK_PUBLIC_MQTT_TLS", default: true))
        bodyLimit = try env.integer("SAFEWALK_HTTP_MAX_BODY", default: bodyLimit, in: 1024...1_048_576)
        sessionLifetime = try env.seconds("SAFEWALK_SESSION_LIFETIME", default: sessionLifetime)
        limits = RateLimits(
            signUpPerAddress: try Self.rule(env, "SAFEWALK_RATE_SIGNUP_PER_ADDRESS", limits, .signUpPerAddress),
            signUpPerAccount: try Self.rule(env, "SAFEWALK_RATE_SIGNUP_PER_ACCOUNT", limits, .signUpPerAccount),
            signInPerAddress: try Self.rule(env, "SAFEWALK_RATE_SIGNIN_PER_ADDRESS", limits, .signInPerAddress),
            signInPerAccount: try Self.rule(env, "SAFEWALK_RATE_SIGNIN_PER_ACCOUNT", limits, .signInPerAccount),
            deviceSetupPerAccount: try Self.rule(
                env, "SAFEWALK_RATE_DEVICE_SETUP_PER_ACCOUNT", limits, .deviceSetupPerAccount),
            pagePerAddress: try Self.rule(env, "SAFEWALK_RATE_PAGE_PER_ADDRESS", limits, .pagePerAddress))
        passwordRounds = try env.integer(
            "SAFEWALK_PASSWORD_ROUNDS", default: passwordRounds, in: PasswordHasher.defaultRounds...10_000_000)
        passwordQueue = try env.integer("SAFEWALK_PASSWORD_QUEUE", default: passwordQueue, in: 1...10_000)
        commandWait = .seconds(try env.seconds("SAFEWALK_BROKER_ADMIN_WAIT", default: 5))
        eraseWait = .seconds(try env.seconds("SAFEWALK_ERASE_WAIT", default: 10))
        eraseRetry = .seconds(try env.seconds("SAFEWALK_ERASE_RETRY", default: 5))
        live = try LiveSettings(environment: env)
        push = try PushSettings(environment: env)
        app = try AppSettings(environment: env)
        desk = try DeskSettings(environment: env)
    }

    /// `N/S`: N attempts per S seconds.
    static func rule(
        _ env: EnvironmentReader, _ name: String, _ defaults: RateLimits, _ scope: RateLimits.Scope
    ) throws(ConfigurationError) -> RateRule {
        guard let raw = env.string(name) else { return defaults.rules[scope]! }
        let parts = raw.split(separator: "/")
        guard parts.count == 2, let burst = Int(parts[0]), burst > 0, let seconds = Double(parts[1]),
            seconds.isFinite, seconds > 0
        else { throw .invalid(name: name, value: raw, expected: "attempts/seconds, e.g. 5/600") }
        return RateRule(burst: burst, per: .seconds(seconds))
    }
}
