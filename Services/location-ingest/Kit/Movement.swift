import SafeWalkCore

/// The position movement is measured from: the last fix that proved movement (or a more
/// accurate fix taken since, see ``MovementRule``).
public struct MovementAnchor: Codable, Hashable, Sendable {
    public var lat: Double
    public var lon: Double
    /// The anchor fix's accuracy radius; nil if unknown.
    public var acc: Double?
    /// The anchor fix's time, used to ignore out-of-order fixes.
    public var tst: EpochSeconds
    /// When movement was last proven (device time of that fix); the first fix's time before.
    public var movedAt: EpochSeconds

    public init(lat: Double, lon: Double, acc: Double?, tst: EpochSeconds, movedAt: EpochSeconds) {
        self.lat = lat
        self.lon = lon
        self.acc = acc
        self.tst = tst
        self.movedAt = movedAt
    }

    public var coordinate: Coordinate { Coordinate(lat: lat, lon: lon) }
}

/// What one fix means for movement.
public enum MovementVerdict: Hashable, Sendable {
    /// No anchor yet: the fix becomes the anchor. Seeing someone is not seeing them move.
    case first
    /// Movement proven; the fix becomes the new anchor.
    case moved(meters: Double)
    /// Within the threshold: not movement.
    case stationary(meters: Double)
    /// Beyond the threshold but within the fixes' combined uncertainty: not movement.
    case inconclusive(meters: Double)
    /// Older than the anchor: ignored entirely.
    case outOfOrder
}

/// The anchor after a fix, and what the fix meant.
public struct MovementStep: Hashable, Sendable {
    public var anchor: MovementAnchor
    public var verdict: MovementVerdict
    /// Whether the fix proved movement.
    public var moved: Bool {
        if case .moved = verdict { return true }
        return false
    }
}

/// The movement rule.
///
/// A fix proves movement iff `distance − (acc_fix + acc_anchor) > thresholdMeters`:
/// the smallest true displacement consistent with both accuracy circles must exceed the
/// threshold, strictly (exactly 5 m with perfect accuracy is not movement). Unknown
/// accuracy (`nil`) counts as infinite, so it can never prove movement. Poor accuracy can
/// therefore only cause a false "no movement" (a false alarm), never hide a real one.
///
/// A fix that does not prove movement leaves the anchor alone, except that a strictly more
/// accurate fix replaces the anchor's position (keeping `movedAt`): it is a better estimate
/// of where the walker is, and stops one bad anchor from blocking movement forever.
public struct MovementRule: Hashable, Sendable {
    public var thresholdMeters: Double

    public init(thresholdMeters: Double = 5) {
        self.thresholdMeters = thresholdMeters
    }

    /// Applies a validated fix to the current anchor.
    public func apply(_ fix: LocationFix, to anchor: MovementAnchor?) -> MovementStep {
        let here = MovementAnchor(lat: fix.lat, lon: fix.lon, acc: fix.acc, tst: fix.tst, movedAt: fix.tst)
        guard let anchor else { return MovementStep(anchor: here, verdict: .first) }
        if fix.tst < anchor.tst { return MovementStep(anchor: anchor, verdict: .outOfOrder) }

        let meters = Geo.distance(anchor.coordinate, fix.coordinate)
        if provesMovement(meters: meters, accuracies: fix.acc, anchor.acc) {
            return MovementStep(anchor: here, verdict: .moved(meters: meters))
        }
        let verdict: MovementVerdict =
            meters > thresholdMeters ? .inconclusive(meters: meters) : .stationary(meters: meters)
        guard isMoreAccurate(fix.acc, than: anchor.acc) else { return MovementStep(anchor: anchor, verdict: verdict) }
        var better = here
        better.movedAt = anchor.movedAt
        return MovementStep(anchor: better, verdict: verdict)
    }

    /// Whether a measured distance between fixes with these accuracy radii proves movement.
    public func provesMovement(meters: Double, accuracies a: Double?, _ b: Double?) -> Bool {
        guard let a, let b, meters.isFinite else { return false }
        return meters - (a + b) > thresholdMeters
    }

    private func isMoreAccurate(_ new: Double?, than old: Double?) -> Bool {
        guard let new else { return false }
        guard let old else { return true }
        return new < old
    }
}

extension SafetyThresholds {
    /// The movement rule with this threshold (`SAFEWALK_MOVEMENT_METERS`).
    public var movementRule: MovementRule { MovementRule(thresholdMeters: movementMeters) }
}
