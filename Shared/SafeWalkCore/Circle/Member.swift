/// One account, retained on `_members/{w}` by `web` (the accounts' owner) and cleared when the
/// account is erased. The circle owner reads them to know who can be followed: a follow request
/// names a person with an account, in any letter case.
public struct Member: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    public var user: WalkerID
    public var since: EpochSeconds

    public init(user: WalkerID, since: EpochSeconds) {
        self.user = user
        self.since = since
    }
}
