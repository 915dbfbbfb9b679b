import SafeWalkCore

/// When a walk that knows where it is going has arrived: two fixes in a row at the destination.
///
/// A fix is at the destination when its whole accuracy circle lies within ``radiusMeters`` of it,
/// so a coarse fix (accuracy over the radius) never is, and a fix of unknown accuracy never is:
/// ending a watch on a guess would stop every timer that protects the walker. One fix could be
/// GPS jitter across the edge, so it takes two in a row; any fix not at it starts the count again.
enum ArrivalRule {
    /// How close counts as there, in metres: a front door and the path to it, not the street.
    static let radiusMeters: Double = 50
    /// Fixes in a row at the destination that end the walk.
    static let fixesNeeded = 2

    /// Whether a fix `distance` metres from the destination, with this accuracy, is at it:
    /// `distance + accuracy <= radiusMeters` (exactly 50 m is at it).
    static func isAt(distance: Double, accuracy: Double?) -> Bool {
        guard let accuracy, accuracy.isFinite, accuracy >= 0, distance.isFinite else { return false }
        return distance + accuracy <= radiusMeters
    }

    /// The count of fixes in a row at the destination after one more fix.
    static func fixesInARow(after count: Int, fixIsAt: Bool) -> Int {
        fixIsAt ? count + 1 : 0
    }

    /// Whether that many fixes in a row end the walk.
    static func hasArrived(_ fixesInARow: Int) -> Bool {
        fixesInARow >= fixesNeeded
    }
}
