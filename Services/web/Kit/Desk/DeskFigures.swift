/// Time to first acknowledgement and to close, as the desk's board and metrics show them.
public struct DeskFigures: Codable, Hashable, Sendable {
    public struct Spread: Codable, Hashable, Sendable {
        /// Seconds; nil when there is nothing to measure yet.
        public var p50: Double?
        public var p95: Double?
        public var count: Int
    }

    public var ack: Spread
    public var close: Spread

    public init(ack: [Double], close: [Double]) {
        self.ack = Self.spread(ack)
        self.close = Self.spread(close)
    }

    static func spread(_ values: [Double]) -> Spread {
        let sorted = values.sorted()
        return Spread(p50: percentile(0.50, of: sorted), p95: percentile(0.95, of: sorted), count: sorted.count)
    }

    /// Nearest rank: the smallest value with at least `fraction` of all at or below it (a value
    /// that happened, never an interpolation between two incidents).
    static func percentile(_ fraction: Double, of sorted: [Double]) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
