import SafeWalkCore

/// What web keeps about one contact's live page: found by the SHA-256 of its token
/// (``PageToken/digest(_:)``), for one incident of one walker. A page is dead once revoked, or
/// once its incident has been closed longer than the grace period; both are final.
public struct PageRecord: Hashable, Sendable {
    public var digest: String
    public var walker: WalkerID
    public var incident: String
    /// The recipient's name as the walker saved it (the "You are on it" check).
    public var name: String
    /// When the incident closed, once web knows it did.
    public var closedAt: EpochSeconds?
    /// The recipient left the ladder, or the walker's account was erased.
    public var revoked: Bool

    public init(
        digest: String, walker: WalkerID, incident: String, name: String, closedAt: EpochSeconds? = nil,
        revoked: Bool = false
    ) {
        self.digest = digest
        self.walker = walker
        self.incident = incident
        self.name = name
        self.closedAt = closedAt
        self.revoked = revoked
    }

    /// Revoked, or closed more than `grace` seconds before `now`.
    public func isDead(at now: EpochSeconds, grace: Double) -> Bool {
        revoked || closedAt.map { now - $0 > grace } ?? false
    }

    /// `self` merged with what was stored before: closing and revoking are never undone, and the
    /// first closing time known stands.
    func keeping(_ stored: PageRecord?) -> PageRecord {
        guard let stored else { return self }
        var merged = self
        merged.revoked = revoked || stored.revoked
        merged.closedAt = stored.closedAt ?? closedAt
        return merged
    }

    /// 64 lowercase hex digits: the only shape of digest web stores or looks up.
    public static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
