/// Why one field of a request was refused: `{"error":{"field":"email","reason":"taken"}}`.
///
/// The reasons are a closed set, so a client can translate them and a metric can count them.
public struct FieldError: Error, Hashable, Sendable {
    public enum Field: String, Codable, Hashable, Sendable, CaseIterable {
        case username, email, password, oldPassword, newPassword
        /// A Web Push subscription's `endpoint`, `keys.p256dh` and `keys.auth`.
        case endpoint, p256dh, auth
        /// The app's publish (`POST /v1/app/publish`): which input, and what to send.
        case kind, payload
        /// The desk's actions (`/v1/desk/...`): a note, a hand-over, a close, a new operator.
        case text, to, reason, note, admin
    }

    public enum Reason: String, Codable, Hashable, Sendable, CaseIterable {
        /// The key is absent from the JSON object.
        case missing
        /// Present but not a string.
        case wrongType
        /// Only whitespace.
        case empty
        case tooShort
        case tooLong
        /// A username outside `[A-Za-z0-9_-]`, an e-mail with a space or a control character.
        case invalidCharacters
        /// A name the system keeps for itself (the service users, `admin`, anything starting with `_`).
        case reserved
        /// Not a well-formed e-mail address.
        case invalid
        /// Someone already has it (compared regardless of case).
        case taken
        /// A password without a digit.
        case needsDigit
        /// A password without a character that is neither a letter nor a digit.
        case needsSpecial
        /// The old password given to change a password is not the account's.
        case incorrect
        /// A push endpoint that is not one of the push services web sends to.
        case notAllowed
    }

    public var field: Field
    public var reason: Reason

    public init(_ field: Field, _ reason: Reason) {
        self.field = field
        self.reason = reason
    }
}
