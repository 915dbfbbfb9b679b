import SafeWalkCore

/// What location-ingest remembers of a walker's OwnTracks Last Will, persisted with the track so
/// a restart neither forgets a device that is gone nor repeats a will it already acted on.
public struct OwnTracksWill: Hashable, Sendable {
    /// The `tst` of the last will acted on: when the app's dead connection began.
    public var connectedAt: EpochSeconds?
    /// True from the will until the walker's next fix.
    public var offline: Bool

    public init(connectedAt: EpochSeconds?, offline: Bool) {
        self.connectedAt = connectedAt
        self.offline = offline
    }
}

/// OwnTracks cannot say `online` on `{w}/presence` (its Last Will is fixed by the app:
/// `{"_type":"lwt","tst":…}` on its own topic), so location-ingest says it for the app: the will
/// is `offline`, the walker's next fix is `online`. The watchdog's `trackerOffline` rule then
/// treats a vanished OwnTracks phone like a vanished SafeWalk app. Pure: no IO, no clock.
public enum OwnTracksPresence {
    /// A will arrived. The same will again (same `tst`: the broker keeps wills that OwnTracks
    /// publishes retained, and hands them over again when ingest resubscribes after a restart) is
    /// ignored, or a walker whose phone came back would be reported gone. A will without `tst`
    /// cannot be recognised, so it always counts.
    public static func lastWill(connectedAt: EpochSeconds?, known: OwnTracksWill?) -> (OwnTracksWill, Presence?) {
        if let known, let connectedAt, known.connectedAt == connectedAt { return (known, nil) }
        let will = OwnTracksWill(connectedAt: connectedAt, offline: true)
        return (will, known?.offline == true ? nil : .offline)
    }

    /// A fix of the walker arrived (any valid one: a position from the walker proves a device is
    /// there). Only a walker marked offline by a will changes; the will's `tst` is kept so its
    /// retained copy stays recognisable.
    public static func fix(known: OwnTracksWill?) -> (OwnTracksWill, Presence)? {
        guard var will = known, will.offline else { return nil }
        will.offline = false
        return (will, .online)
    }
}
