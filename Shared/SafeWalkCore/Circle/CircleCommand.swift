/// One command a user's device sends to the circle owner on `{w}/circle/cmd` (docs/CONTRACT.md,
/// "The circle"). Every command is answered once on `{w}/circle/result` with the same `id`.
///
/// This is the wire shape, used by clients to encode; contacts-store reads commands through its
/// own intake, which trims names and answers every unreadable command with an error code.
public struct CircleCommand: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    /// Chosen by the device (1...128 printable ASCII characters); a command sent again with the
    /// same id is answered again and applied once.
    public var id: String
    public var op: Operation
    /// The other user, for operations about one (`follow`, `accept`, `sos`, `ack`, …). Leading and
    /// trailing spaces are ignored.
    public var user: String?
    /// `revealOnMissedCheckIn`: the setting's new value.
    public var on: Bool?

    public enum Operation: String, Codable, CaseIterable, Hashable, Sendable {
        /// Ask `user` to let w follow them.
        case follow
        /// Let `user`, who asked, follow w.
        case accept
        /// Refuse `user`'s request to follow w.
        case deny
        /// Stop following `user` (or withdraw the request to).
        case unfollow
        /// Stop `user` following w.
        case removeFollower
        /// Mark `user`, whom w follows, as an SOS contact: w's escalations reach them in-app.
        case sos
        /// Take the SOS mark off `user`.
        case unsos
        /// Ask `user` (or, without `user`, everyone w follows) to check in.
        case checkInRequest
        /// "I'm safe": answers every open check-in request, seen by all of w's followers.
        case checkIn
        /// "Home safe": seen by w's followers until it expires.
        case homeSafe
        /// w, an SOS contact of `user`, is on `user`'s open incident.
        case ack
        /// Send w's inbox again (events kept while the phone was off).
        case inbox
        /// `on`: whether an SOS contact whose check-in request w leaves unanswered is shown w's
        /// last known position and status (off unless w turns it on).
        case revealOnMissedCheckIn
    }

    public init(id: String, op: Operation, user: String? = nil, on: Bool? = nil) {
        self.id = id
        self.op = op
        self.user = user
        self.on = on
    }
}
