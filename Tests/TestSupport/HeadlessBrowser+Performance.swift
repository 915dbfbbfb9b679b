import Foundation

/// What the page cost to open, as the browser measured it (Navigation and Resource Timing):
/// when each thing arrived and how many bytes crossed the network for it.
extension HeadlessBrowser {
    /// One entry of `performance.getEntriesByType('navigation' | 'resource')`; times in ms since
    /// the navigation started, sizes in bytes. `transferSize` counts headers and body as received
    /// (0 when it came from a cache or the service worker without touching the network).
    public struct LoadEntry: Sendable, CustomStringConvertible {
        public var name: String
        public var initiator: String
        public var start: Double
        public var end: Double
        public var transferSize: Int
        public var bodySize: Int

        public var description: String { "\(name) \(transferSize) B \(Int(end - start)) ms" }
    }

    /// The page's navigation entry (its document).
    public func navigationEntry() async throws -> LoadEntry {
        guard let entry = try await loadEntries("navigation").first else {
            throw Failure(description: "no navigation timing entry")
        }
        return entry
    }

    /// Every resource the page fetched so far (scripts, styles, images, fetch/XHR, an open
    /// event stream as soon as it started).
    public func resourceEntries() async throws -> [LoadEntry] {
        try await loadEntries("resource")
    }

    /// `performance.now()` in the page: ms since its navigation started.
    public func pageNow() async throws -> Double {
        try await evaluate("return performance.now();") as? Double ?? 0
    }

    private func loadEntries(_ type: String) async throws -> [LoadEntry] {
        let script = """
            return performance.getEntriesByType(arguments[0]).map(e => [e.name, e.initiatorType || 'navigation',
              e.startTime, e.responseEnd, e.transferSize || 0, e.encodedBodySize || 0]);
            """
        let rows = try await evaluate(script, [type]) as? [[Any]] ?? []
        return rows.compactMap { row in
            guard row.count == 6, let name = row[0] as? String, let initiator = row[1] as? String else { return nil }
            func number(_ value: Any) -> Double { (value as? NSNumber)?.doubleValue ?? 0 }
            return LoadEntry(
                name: name, initiator: initiator, start: number(row[2]), end: number(row[3]),
                transferSize: Int(number(row[4])), bodySize: Int(number(row[5])))
        }
    }
}
