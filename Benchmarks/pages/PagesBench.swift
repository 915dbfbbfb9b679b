import ArgumentParser
import BenchSupport
import Foundation
import SafeWalkCore
import SafeWalkService
import TestSupport

/// Contacts' live pages under load (issue 18): the real `web` executable on the project's secured
/// broker, `--incidents` open incidents each with its page connected (Server-Sent Events), and a
/// new fix for each walker at walking pace. Reports the time from a fix's publish to its arrival on
/// the open page (p50/p99), beside the broker's own publish-to-subscriber time for the same fixes
/// in the same run (a plain MQTT subscriber to `safewalk/+/position`), and the page's first render:
/// the HTML and everything it loads (map tiles aside), time and bytes.
///
///   swift build -c release --product web --product pages-bench
///   .build/release/pages-bench [--incidents 1000] [--seconds 30] [--interval 5]
///
/// The incidents are published as the watchdog, the notifier and location-ingest would
/// (`_incidents/{w}`, `_ladder/{w}`, `{w}/position`), logged in as those services.
@main
struct PagesBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pages-bench",
        abstract: "Open incident pages under load: fix-to-page latency beside the broker's own, first render.")

    @Option(help: "Open incidents, each with its page connected.") var incidents = 1000
    @Option(help: "Measured seconds of fixes.") var seconds: Double = 30
    @Option(help: "Seconds between two fixes of one walker (walking pace: 5).") var interval: Double = 5
    @Option(help: "First renders to time.") var renders = 20

    func run() async throws {
        let run = try await PagesRun.start(incidents: incidents)
        do {
            let render = try await run.firstRenders(renders)
            try await run.connectPages()
            let latencies = try await run.measureFixes(seconds: seconds, interval: interval)
            let cpu = run.webCPUSeconds()
            print(
                String(
                    format: "pages: %d open incidents, %d pages connected, fixes every %.1f s per walker for %.0f s",
                    incidents, incidents, interval, seconds))
            print("fix → open page:     " + latencies.page.millisecondsSummary)
            print("fix → MQTT subscriber (baseline, same run): " + latencies.broker.millisecondsSummary)
            print(
                String(
                    format: "ratio p50 %.2f, p99 %.2f (page / broker)",
                    latencies.page.percentile(50) / latencies.broker.percentile(50),
                    latencies.page.percentile(99) / latencies.broker.percentile(99)))
            print(
                String(
                    format: "missed on pages: %d of %d fixes; web CPU %.1f s over the run", latencies.missed,
                    latencies.sent, cpu))
            print(
                String(
                    format: "first render (HTML + %d files it loads, sequential, loopback): %@; %d bytes",
                    render.files, render.times.millisecondsSummary, render.bytes))
        } catch {
            await run.stop()
            throw error
        }
        await run.stop()
    }
}
