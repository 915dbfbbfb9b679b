/// The circle owner's answer to one ``CircleCommand`` (`{w}/circle/result`).
public struct CircleResult: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    /// The command's id; nil only when the command was unreadable before its id.
    public var id: String?
    public var op: String?
    public var ok: Bool
    public var error: CircleError?
    /// `inbox`: how many events were sent again; `checkInRequest`: how many users were asked.
    public var count: Int?

    public init(id: String?, op: String?, ok: Bool, error: CircleError? = nil, count: Int? = nil) {
        self.id = id
        self.op = op
        self.ok = ok
        self.error = error
        self.count = count
    }
}

/// Why a circle command was refused: a stable `code` for apps and a sentence for people.
public struct CircleError: Codable, Hashable, Sendable, Error {
    public var code: Code
    public var message: String

    public init(_ code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public enum Code: String, Codable, CaseIterable, Hashable, Sendable {
        /// Not JSON, no usable `id`, an unknown `op`, a missing or malformed field.
        case invalidCommand
        /// `user` names nobody with a SafeWalk account.
        case unknownUser
        /// `follow` (or anything else that needs another user) naming w.
        case followingYourself
        /// `follow` of someone w follows already.
        case alreadyFollowing
        /// `follow` of someone w asked already, still waiting for an answer.
        case alreadyRequested
        /// `accept` or `deny` with no request from `user`.
        case noRequest
        /// `unfollow`, `sos`, `unsos` or `checkInRequest` naming someone w does not follow.
        case notFollowing
        /// `removeFollower` naming someone who does not follow w.
        case notAFollower
        /// `checkInRequest` without `user` when w follows nobody.
        case nobodyToAsk
        /// `ack` of a user who has not made w an SOS contact.
        case notAnSOSContact
        /// `ack` when that user has no open incident.
        case noOpenIncident
        /// The circle owner could not save the change; nothing changed, ask again.
        case storeError
    }
}
