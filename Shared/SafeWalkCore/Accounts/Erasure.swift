/// `web` asks one service to erase everything it keeps about a walker, on
/// `_accounts/erase/{service}` (docs/CONTRACT.md, "Accounts").
public struct EraseRequest: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    /// The erasure's id, the same for every service asked; reports carry it back.
    public var id: String
    public var user: WalkerID

    public init(id: String, user: WalkerID) {
        self.id = id
        self.user = user
    }
}

/// A service's answer on `_accounts/erased/{service}`. Erasing is idempotent: a walker with
/// nothing stored is reported erased.
public struct EraseReport: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    public var id: String
    public var user: WalkerID
    public var ok: Bool
    public var error: Failure?

    public enum Failure: String, Codable, Hashable, Sendable {
        /// The watchdog's refusal: the walker has an incident open, so nothing was erased.
        case openIncident
        /// The service could not write its store; `web` asks again later.
        case storeError
    }

    public init(id: String, user: WalkerID, ok: Bool, error: Failure? = nil) {
        self.id = id
        self.user = user
        self.ok = ok
        self.error = error
    }
}
