import Foundation
import SafeWalkCore
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the hostile-input suite adds to the shared stack: its one walker, and a metrics port per
/// service to read the rejection counters from.
///
/// The secured broker, not an open one: hostile input must arrive the way it would in production,
/// so each kind is published by the only user the ACL lets write it (the walker for its own input
/// topics, a service user for topics only a service writes).
extension ServiceStack {
    static func startForHostileInput() async throws -> ServiceStack {
        try await start(walkers: [SelectedCorpus.walker], openMetricsPorts: true)
    }

    /// `safewalk_rejections_total` of `service` by reason, scraped from its `/metrics`.
    func rejections(of service: ServiceName) async throws -> [String: Int] {
        let (data, _) = try await URLSession.shared.data(from: metricsURL(of: service)!)
        return PrometheusText.counter(
            "safewalk_rejections_total", by: "reason", in: String(decoding: data, as: UTF8.self))
    }
}
