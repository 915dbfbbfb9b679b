import Foundation
import SafeWalkService

/// How to reach Gemini. The API key is held here but never printed: `description` redacts it,
/// so logging a configuration cannot leak it.
public struct GeminiConfiguration: Sendable, CustomStringConvertible {
    public static let defaultBaseURL = "https://generativelanguage.googleapis.com"
    public static let defaultModel = "gemini-2.0-flash"

    /// nil: no requests are made and every free-text reply gets a canned answer.
    public var apiKey: String?
    /// Scheme, host and optional port (and path prefix), without a trailing slash.
    public var baseURL: String
    /// A model id such as `gemini-2.0-flash` (a leading `models/` is accepted and dropped).
    public var model: String
    /// The whole budget for one answer: every attempt and every wait.
    public var timeout: Duration
    public var retry: RetryPolicy
    public var generation: GeminiGenerationConfig
    /// Longer answers are cut at a word boundary; a chat bubble is not an essay.
    public var maxAnswerCharacters: Int
    /// A larger response body is treated as malformed rather than read into memory.
    public var maxResponseBytes: Int

    public init(
        apiKey: String?, baseURL: String = defaultBaseURL, model: String = defaultModel,
        timeout: Duration = .seconds(10), retry: RetryPolicy? = nil,
        generation: GeminiGenerationConfig = .init(temperature: 0.7, maxOutputTokens: 200, candidateCount: 1),
        maxAnswerCharacters: Int = 800, maxResponseBytes: Int = 1 << 20
    ) {
        self.apiKey = apiKey
        self.baseURL = baseURL
        self.model = model
        self.timeout = timeout
        self.retry = retry ?? RetryPolicy(backoff: .milliseconds(500), minimumAttempt: min(.seconds(1), timeout / 4))
        self.generation = generation
        self.maxAnswerCharacters = maxAnswerCharacters
        self.maxResponseBytes = maxResponseBytes
    }

    /// Reads `GEMINI_API_KEY`, `SAFEWALK_GEMINI_BASE_URL`, `SAFEWALK_GEMINI_MODEL` and
    /// `SAFEWALK_GEMINI_TIMEOUT` (seconds).
    public init(environment env: EnvironmentReader) throws(ConfigurationError) {
        let base = env.string("SAFEWALK_GEMINI_BASE_URL", default: Self.defaultBaseURL)
        guard let url = URL(string: base), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host?.isEmpty == false, url.query == nil
        else {
            throw .invalid(
                name: "SAFEWALK_GEMINI_BASE_URL", value: base, expected: "an http(s) URL such as \(Self.defaultBaseURL)"
            )
        }
        var model = env.string("SAFEWALK_GEMINI_MODEL", default: Self.defaultModel)
        if model.hasPrefix("models/") { model.removeFirst("models/".count) }
        // The model id becomes a path segment: only the characters Google's ids use.
        guard !model.isEmpty, model.unicodeScalars.allSatisfy({ Self.modelCharacters.contains($0) }) else {
            throw .invalid(
                name: "SAFEWALK_GEMINI_MODEL", value: model, expected: "a model id such as \(Self.defaultModel)")
        }
        let seconds = try env.seconds("SAFEWALK_GEMINI_TIMEOUT", default: 10)
        guard seconds <= 300 else {
            throw .invalid(name: "SAFEWALK_GEMINI_TIMEOUT", value: "\(seconds)", expected: "at most 300 seconds")
        }
        self.init(
            apiKey: env.string("GEMINI_API_KEY"),
            baseURL: base.hasSuffix("/") ? String(base.dropLast()) : base,
            model: model, timeout: .milliseconds(Int64((seconds * 1000).rounded())))
    }

    private static let modelCharacters = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")

    /// `{base}/v1beta/models/{model}:generateContent`
    public var endpoint: String { "\(baseURL)/v1beta/models/\(model):generateContent" }

    public var description: String {
        "GeminiConfiguration(endpoint: \(endpoint), key: \(apiKey == nil ? "none" : "set (redacted)"), timeout: \(timeout))"
    }
}
