/// The sentence a person reads beside each ``APIError`` (clients show it; they decide by `reason`).
extension APIError {
    public var message: String {
        switch self {
        case .field(let error): error.message
        case .malformedJSON: "The request body must be one JSON object."
        case .invalidUTF8: "The request body must be UTF-8."
        case .malformedForm: "The form is not valid or lacks a field."
        case .badSignature: "The request's signature is missing or wrong."
        case .tooLarge(let limit): "The request body must be at most \(limit) bytes."
        case .unsupportedMediaType: "Send the body as application/json (a form where a form is expected)."
        case .notFound: "There is nothing here."
        case .rateLimited: "Too many attempts. Try again later."
        case .badCredentials: "The username or password is wrong."
        case .unauthenticated: "Sign in first."
        case .csrf: "The X-CSRF-Token header is missing or wrong."
        case .forbidden: "You are signed in as someone else."
        case .unavailable: "The service is unavailable. Try again in a moment."
        case .busy: "The service is busy. Try again in a moment."
        case .brokerUnavailable: "The message could not be sent just now. Try again in a moment."
        case .tooManyStreams: "Too many app windows are open for this session. Close one and try again."
        case .openIncident: "The account cannot be deleted while an incident is open."
        case .useDesk: "This is a monitoring desk account: sign in at /ops."
        case .notOperator: "This account is not an operator of the monitoring desk."
        case .notAdmin: "Only an admin of the desk may add operators."
        case .noOpenIncident: "This walker has no open incident: the desk sees positions only during one."
        case .notOpen: "This incident is not open any more."
        case .noteRequired: "A duress incident needs a note to be closed as a false alarm."
        case .unknownOperator: "There is no operator with that name."
        case .internalError: "Something went wrong on our side."
        }
    }
}

extension FieldError {
    public var message: String {
        let name =
            switch field {
            case .username: "The username"
            case .email: "The e-mail address"
            case .password: "The password"
            case .oldPassword: "The current password"
            case .newPassword: "The new password"
            case .endpoint: "The push endpoint"
            case .p256dh: "The push key (keys.p256dh)"
            case .auth: "The push secret (keys.auth)"
            case .kind: "The kind"
            case .payload: "The payload"
            case .text, .note: "The note"
            case .to: "The operator"
            case .reason: "The reason"
            case .admin: "admin"
            }
        return switch reason {
        case .missing: "\(name) is missing."
        case .wrongType: field == .admin ? "admin must be true or false." : "\(name) must be a string."
        case .empty: "\(name) is empty."
        case .tooShort: "\(name) must have at least \(PasswordRule.minLength) characters."
        case .tooLong: "\(name) is too long."
        case .invalidCharacters:
            field == .username
                ? "\(name) may use only letters A-Z, digits, '-' and '_'." : "\(name) contains a character it cannot."
        case .reserved: "\(name) is reserved."
        case .invalid: "\(name) is not valid."
        case .taken: "\(name) is already taken."
        case .needsDigit: "\(name) needs at least one digit."
        case .needsSpecial: "\(name) needs at least one character that is neither a letter nor a digit."
        case .incorrect: "\(name) is wrong."
        case .notAllowed: "\(name) is not a push service this server sends to."
        }
    }
}
