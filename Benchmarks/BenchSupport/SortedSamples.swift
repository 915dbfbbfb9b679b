import Foundation

/// Benchmark samples, sorted once and read by percentile.
///
/// Every benchmark reports percentiles by one definition, nearest rank: the p-th percentile is
/// the smallest sample with at least p % of the samples at or below it, `sorted[⌈p/100 · n⌉ − 1]`
/// (p = 0 reads the smallest). A reported p50 or p99 is therefore always a measured sample,
/// never an interpolation between two. e2e-load and watchdog each used this definition before
/// they shared it; location-ingest's median of its rounds is its own (see its bench).
public struct SortedSamples: Sendable {
    /// The samples, smallest first.
    public let values: [Double]

    public init(_ samples: [Double]) {
        values = samples.sorted()
    }

    public var count: Int { values.count }
    public var isEmpty: Bool { values.isEmpty }

    /// The largest sample; NaN when there are none, so a table shows `nan`, not a made-up zero.
    public var max: Double { values.last ?? .nan }

    /// The nearest-rank percentile, `p` in 0...100; NaN when there are no samples.
    public func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(values.count)).rounded(.up)) - 1
        return values[Swift.min(Swift.max(rank, 0), values.count - 1)]
    }

    /// `p50 1.2 ms, p99 3.4 ms, max 5.6 ms (n=7)` for samples in seconds.
    public var millisecondsSummary: String {
        String(
            format: "p50 %.1f ms, p99 %.1f ms, max %.1f ms (n=%d)",
            percentile(50) * 1000, percentile(99) * 1000, max * 1000, count)
    }
}
