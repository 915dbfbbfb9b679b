import Hummingbird

/// Every way the HTTP API refuses a request. Each has a status, a stable `reason` for clients and
/// for `safewalk_http_rejections_total{reason}`, and a sentence for people; none carries a stack
/// trace or anything a client sent.
public enum APIError: Error, Hashable, Sendable {
    /// One field is wrong: 400, or 409 when it is taken, or 403 for a wrong old password.
    case field(FieldError)
    /// The body is not one JSON object.
    case malformedJSON
    /// The body is not UTF-8.
    case invalidUTF8
    /// A form body that is not valid URL encoding, or lacks a field it needs.
    case malformedForm
    /// A webhook whose gateway signature is missing or wrong.
    case badSignature
    /// The body is larger than the limit (bytes).
    case tooLarge(limit: Int)
    /// Anything but `application/json` where a body is read.
    case unsupportedMediaType
    case notFound
    /// Too many attempts from this address or for this account; try again after the seconds given.
    case rateLimited(retryAfterSeconds: Int)
    /// Sign-in with a username and password that do not match an active account.
    case badCredentials
    /// No session cookie, or one that has expired or was signed out.
    case unauthenticated
    /// A state-changing request without the session's `X-CSRF-Token`.
    case csrf
    /// Signed in, but as someone else.
    case forbidden
    /// The broker's credentials or a service's erasure did not answer in time or failed.
    case unavailable
    /// The session's broker login could not publish (or connect) in time.
    case brokerUnavailable
    /// The session has as many app event streams open as it may.
    case tooManyStreams
    /// Too many password hashes are already queued (see ``PasswordWork``).
    case busy
    /// The account cannot be deleted while its walker has an incident open.
    case openIncident
    /// A desk account signing in to the walker's side, or using a walker's route.
    case useDesk
    /// A walker's session on a desk route, or a walker signing in at `/ops`.
    case notOperator
    /// An operator adding an operator without being an admin.
    case notAdmin
    /// The desk asked for a position of a walker with no open incident (nothing was served).
    case noOpenIncident
    /// The desk acted on an incident that is closed (or was replaced by a later one).
    case notOpen
    /// A duress incident closed as a false alarm without a note.
    case noteRequired
    /// A hand-over to someone who is not an operator.
    case unknownOperator
    /// A fault of ours, logged with its detail; the client sees only this.
    case internalError

    public var status: HTTPResponse.Status {
        switch self {
        case .field(let error):
            switch error.reason {
            case .taken: .conflict
            case .incorrect: .forbidden
            default: .badRequest
            }
        case .malformedJSON, .invalidUTF8, .malformedForm: .badRequest
        case .badSignature: .forbidden
        case .tooLarge: .contentTooLarge
        case .unsupportedMediaType: .unsupportedMediaType
        case .notFound: .notFound
        case .rateLimited: .tooManyRequests
        case .badCredentials, .unauthenticated: .unauthorized
        case .csrf, .forbidden: .forbidden
        case .unavailable, .busy, .brokerUnavailable: .serviceUnavailable
        case .tooManyStreams: .tooManyRequests
        case .openIncident: .conflict
        case .useDesk, .notOperator, .notAdmin, .noOpenIncident: .forbidden
        case .notOpen: .conflict
        case .noteRequired: .unprocessableContent
        case .unknownOperator: .notFound
        case .internalError: .internalServerError
        }
    }

    /// The `reason` of the JSON body.
    public var reason: String {
        switch self {
        case .field(let error): error.reason.rawValue
        case .malformedJSON: "malformedJSON"
        case .invalidUTF8: "invalidUTF8"
        case .malformedForm: "malformedForm"
        case .badSignature: "badSignature"
        case .tooLarge: "tooLarge"
        case .unsupportedMediaType: "unsupportedMediaType"
        case .notFound: "notFound"
        case .rateLimited: "rateLimited"
        case .badCredentials: "badCredentials"
        case .unauthenticated: "unauthenticated"
        case .csrf: "csrf"
        case .forbidden: "forbidden"
        case .unavailable: "unavailable"
        case .busy: "busy"
        case .brokerUnavailable: "brokerUnavailable"
        case .tooManyStreams: "tooManyStreams"
        case .openIncident: "openIncident"
        case .useDesk: "useDesk"
        case .notOperator: "notOperator"
        case .notAdmin: "notAdmin"
        case .noOpenIncident: "noOpenIncident"
        case .notOpen: "notOpen"
        case .noteRequired: "noteRequired"
        case .unknownOperator: "unknownOperator"
        case .internalError: "internal"
        }
    }

    public var field: FieldError.Field? {
        if case .field(let error) = self { return error.field }
        return nil
    }

    /// The label counted in `safewalk_http_rejections_total`: the reason, prefixed by the field
    /// for field errors (`email_taken`). A closed set, so the metric's cardinality is bounded.
    public var metricReason: String {
        field.map { "\($0.rawValue)_\(reason)" } ?? reason
    }

    /// Seconds for a `Retry-After` header.
    public var retryAfter: Int? {
        switch self {
        case .rateLimited(let seconds): seconds
        case .busy, .unavailable, .brokerUnavailable: 1
        default: nil
        }
    }
}
