/// Why the language model gave no answer. The chat answers every case with a canned message;
/// the distinction is for logs, metrics and the retry rule.
public enum ChatModelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No `GEMINI_API_KEY` configured: no request is ever made.
    case noKey
    /// The service could not be reached (DNS, refused, reset, TLS, cancelled).
    case offline(String)
    /// No answer within the configured timeout (all attempts and waits included).
    case timedOut
    /// HTTP 429. `retryAfter` is what the server asked for, if anything.
    case rateLimited(retryAfter: Duration?)
    /// HTTP 408 or 5xx: Google's side failed; worth one retry.
    case serverError(code: Int, status: String?, message: String?)
    /// Any other 4xx (bad key, unknown model, bad request): retrying cannot help, an operator must.
    case rejected(code: Int, status: String?, message: String?)
    /// The prompt or the answer was stopped by Gemini's safety filters (`reason` as Google names it).
    case blocked(reason: String)
    /// A 200 whose body is not the documented JSON, or carries no text.
    case malformed(String)

    /// A stable snake_case code for logs and metric labels.
    public var code: String {
        switch self {
        case .noKey: "no_key"
        case .offline: "offline"
        case .timedOut: "timed_out"
        case .rateLimited: "rate_limited"
        case .serverError: "server_error"
        case .rejected: "rejected"
        case .blocked: "blocked"
        case .malformed: "malformed"
        }
    }

    /// Failures a second attempt may cure: network errors, 408, 429 and 5xx.
    public var isTransient: Bool {
        switch self {
        case .offline, .rateLimited, .serverError: true
        case .noKey, .timedOut, .rejected, .blocked, .malformed: false
        }
    }

    public var description: String {
        switch self {
        case .offline(let why): "offline (\(why))"
        case .rateLimited(let after): "rate_limited (retry after \(after.map { "\($0)" } ?? "-"))"
        case .serverError(let code, let status, let message), .rejected(let code, let status, let message):
            "\(self.code) (\(code) \(status ?? "-"): \(message ?? "-"))"
        case .blocked(let reason): "blocked (\(reason))"
        case .malformed(let why): "malformed (\(why))"
        default: code
        }
    }
}
