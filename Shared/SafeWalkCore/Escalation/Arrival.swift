/// A walk that ended as `arrived`, on the services-only `_arrivals/{w}` (watchdog → contacts-store,
/// operators; QoS 1, not retained; docs/CONTRACT.md). The circle owner uses it to show the walker
/// "home safe". It says nothing about incidents: an arrival never closes one, and under duress the
/// incident stays open on `_incidents/{w}` however the walk ended, so readers must take incidents
/// from there, never from this.
public struct Arrival: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    public var walker: WalkerID
    /// When the walk ended.
    public var at: EpochSeconds
    /// The walk's destination as the walker named it; absent for a watch without a named walk.
    public var destination: String?
    /// True when the watchdog saw the walker arrive (two fixes in a row at `to`); false for the
    /// walker's own `arrived`.
    public var automatic: Bool

    public init(walker: WalkerID, at: EpochSeconds, destination: String?, automatic: Bool) {
        self.walker = walker
        self.at = at
        self.destination = destination
        self.automatic = automatic
    }
}
