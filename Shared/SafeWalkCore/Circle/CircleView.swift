/// Everything about w's circle that w may see, retained on `{w}/circle` and republished after
/// every change (docs/CONTRACT.md, "The circle").
public struct CircleView: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    public var user: WalkerID
    /// Users w follows, in the order w started following them.
    public var following: [Followed]
    /// Users who follow w.
    public var followers: [Follower]
    /// Users asking to follow w.
    public var requestsIn: [Request]
    /// Users w asked to follow, still waiting.
    public var requestsOut: [Request]
    /// Open check-in requests to w, one per asker (asking again replaces).
    public var checkInRequests: [Request]
    /// w's own open check-in requests to others.
    public var asked: [Request]
    /// w's own "home safe", while it lasts.
    public var homeSafe: HomeSafe?
    public var revealOnMissedCheckIn: Bool

    public init(
        user: WalkerID, following: [Followed] = [], followers: [Follower] = [], requestsIn: [Request] = [],
        requestsOut: [Request] = [], checkInRequests: [Request] = [], asked: [Request] = [],
        homeSafe: HomeSafe? = nil, revealOnMissedCheckIn: Bool = false
    ) {
        self.user = user
        self.following = following
        self.followers = followers
        self.requestsIn = requestsIn
        self.requestsOut = requestsOut
        self.checkInRequests = checkInRequests
        self.asked = asked
        self.homeSafe = homeSafe
        self.revealOnMissedCheckIn = revealOnMissedCheckIn
    }

    /// Someone w follows, with what they showed their followers.
    public struct Followed: Codable, Hashable, Sendable {
        public var user: WalkerID
        /// w made them an SOS contact: w's escalations reach them.
        public var sos: Bool
        public var since: EpochSeconds
        /// Their last "I'm safe" check-in.
        public var checkedInAt: EpochSeconds?
        /// Their "home safe", while it lasts.
        public var homeSafe: HomeSafe?

        public init(
            user: WalkerID, sos: Bool, since: EpochSeconds, checkedInAt: EpochSeconds? = nil,
            homeSafe: HomeSafe? = nil
        ) {
            self.user = user
            self.sos = sos
            self.since = since
            self.checkedInAt = checkedInAt
            self.homeSafe = homeSafe
        }
    }

    /// Someone who follows w.
    public struct Follower: Codable, Hashable, Sendable {
        public var user: WalkerID
        /// They made w an SOS contact: their escalations reach w.
        public var sosOfTheirs: Bool
        public var since: EpochSeconds

        public init(user: WalkerID, sosOfTheirs: Bool, since: EpochSeconds) {
            self.user = user
            self.sosOfTheirs = sosOfTheirs
            self.since = since
        }
    }

    /// A request between w and `user`, made at `at`.
    public struct Request: Codable, Hashable, Sendable {
        public var user: WalkerID
        public var at: EpochSeconds

        public init(user: WalkerID, at: EpochSeconds) {
            self.user = user
            self.at = at
        }
    }
}

/// "Home safe" since `at`, shown until `until`.
public struct HomeSafe: Codable, Hashable, Sendable {
    public var at: EpochSeconds
    public var until: EpochSeconds

    public init(at: EpochSeconds, until: EpochSeconds) {
        self.at = at
        self.until = until
    }

    public func isShown(at now: EpochSeconds) -> Bool { now < until }
}
