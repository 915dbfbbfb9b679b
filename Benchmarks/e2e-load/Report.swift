import BenchSupport
import Foundation

/// Prints one run's tables (Markdown, ready for RESULTS.md).
enum Report {
    static func main(_ raw: LoadRun.Raw, _ e: Evaluation) {
        let plan = raw.plan
        let window = raw.windowEnd.at - raw.windowStart.at
        print("")
        print(
            "## \(plan.walkers) walkers, \(plan.silent) silent, window \(Int(window)) s, \(plan.connections) connections"
        )
        print(
            "thresholds: \(plan.thresholds.description); fixes every \(plan.fixInterval) s at QoS 1; \(plan.contacts) contacts per walker"
        )
        print("")
        print("| escalation latency from the deadline | p50 | p99 | max | n |")
        print("|---|---|---|---|---|")
        row("watchdog decision (escalation `at`)", e.toDecision)
        row("escalation received on `{w}/escalation`", e.toEscalation)
        row("**alert received on `{w}/alert`**", e.toAlert)
        row("last contact's SMS accepted by the gateway", e.toSMS)
        print("")
        print("| check | value |")
        print("|---|---|")
        print(
            "| silences due / escalated | \(e.due) / \(e.due - e.missed) (reasons: \(e.reasons.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))) |"
        )
        if !e.faultsFailed.isEmpty {
            print(
                "| **fault steps that failed** (the case was not tested) | **\(e.faultsFailed.joined(separator: "; "))** |"
            )
        }
        print("| **missed escalations** | **\(e.missed)** |")
        print("| **duplicated escalations** (extra ids per walker) | **\(e.duplicated)** |")
        print("| false alarms (escalations of walkers who kept answering) | \(e.falseAlarms) |")
        print("| alerts missing / duplicated | \(e.alertMissing) / \(e.alertDuplicated) |")
        print("| alerts repeating one escalation id (shown once by the device) | \(e.alertRepeats) |")
        print("| escalations known only from the walker's alert (the observer's copy lost) | \(e.knownOnlyFromAlert) |")
        print(
            "| SMS expected / accepted / missing / duplicated | \(e.smsExpected) / \(e.smsDelivered) / \(e.smsMissing) / \(e.smsDuplicated) |"
        )
        print(
            "| of the duplicated texts, sent again after an interrupted attempt (the notifier's documented crash window) | \(e.smsResentAfterCrash) |"
        )
        print("| all-clear texts (incidents ended by the run's final stop) | \(e.smsAllClears) |")
        print(String(format: "| fixes offered (acked) in window | %.0f fixes/s |", e.offeredPerSecond))
        print(String(format: "| **fixes ingested (stored) in window** | **%.0f fixes/s** |", e.ingestedPerSecond))
        print(
            "| fixes acknowledged / stored / lost (whole run) | \(e.fixesAcked) / \(e.fixesStored) / \(e.fixesLost) |")
        print("| check-in replies sent | \(raw.replies) |")
        print("| publish failures (phones) | \(raw.publishFailures) |")
        print(
            String(
                format: "| broker stored messages max ($SYS store count: queued + retained) | %.0f |",
                raw.observed.brokerStoredMax))
        if let messagesIn = raw.sysIncrease("$SYS/broker/publish/messages/received"),
            let messagesOut = raw.sysIncrease("$SYS/broker/publish/messages/sent")
        {
            print(
                String(
                    format: "| broker PUBLISH in / out in window | %.0f / %.0f msgs/s |", messagesIn / window,
                    messagesOut / window))
        }
        // Every byte of every MQTT packet both ways (PUBACKs and keep-alives too): the network a
        // fix costs the broker's host, for the sizing model (docs/SCALING.md).
        if let bytesIn = raw.sysIncrease("$SYS/broker/bytes/received"),
            let bytesOut = raw.sysIncrease("$SYS/broker/bytes/sent")
        {
            let fixes = raw.fixesStoredInWindow
            print(
                String(
                    format: "| broker bytes in / out in window | %.0f / %.0f kB/s: %.0f / %.0f bytes per stored fix |",
                    bytesIn / window / 1000, bytesOut / window / 1000, bytesIn / fixes, bytesOut / fixes))
        }
        print(
            "| rejections | \(raw.observed.rejections.isEmpty ? "none" : raw.observed.rejections.map { "\($0.key) \($0.value)" }.joined(separator: ", ")) |"
        )
        print("")
        print("| process | CPU s in window | CPU % of one core | CPU s whole run | peak RSS (VmHWM) |")
        print("|---|---|---|---|---|")
        for p in raw.processes {
            let key = p.name.hasPrefix("e2e-load-bench") ? "bench" : p.name
            let w = (raw.windowEnd.cpu[key] ?? 0) - (raw.windowStart.cpu[key] ?? 0)
            print(
                "| \(p.name) | " + f("%.1f | %.0f %% | %.1f | ", w, 100 * w / window, p.cpuTotal)
                    + "\(Stats.mb(p.peakRSS)) |")
        }
        if let b = raw.baseline {
            let share = StackShare(raw)
            let brokerAlone = 1e6 * b.brokerCPU / Double(max(b.received, 1))  // µs per raw fix
            print("")
            print("| same-run raw broker baseline | value | full system | ratio |")
            print("|---|---|---|---|")
            print(
                String(
                    format:
                        "| fix rate: plain subscriber received / published | %.0f / %.0f fixes/s (%.3f) | stored / acked %.0f / %.0f fixes/s (%.3f) | %.2f |",
                    b.receivedPerSecond, Double(b.published) / b.seconds,
                    Double(b.received) / Double(max(b.published, 1)),
                    e.ingestedPerSecond, e.offeredPerSecond, e.ingestedPerSecond / max(e.offeredPerSecond, 1),
                    e.ingestedPerSecond / b.receivedPerSecond))
            print(
                String(
                    format:
                        "| broker CPU | %.1f %% of a core (%.1f µs per fix) | %.1f %% (%.1f µs per stored fix, all traffic) | %.1f× per fix |",
                    100 * b.brokerCPU / b.seconds, brokerAlone, share.brokerPercent, share.brokerMicrosecondsPerFix,
                    share.brokerMicrosecondsPerFix / brokerAlone))
            print(
                String(
                    format:
                        "| CPU per fix: broker alone vs five services | %.1f µs | %.1f µs (services only) | %.1f× |",
                    brokerAlone, share.servicesMicrosecondsPerFix, share.servicesMicrosecondsPerFix / brokerAlone))
            print(
                String(
                    format:
                        "| raw QoS 1 burst ceiling (%d fixes) | %.0f fixes/s | offered %.0f fixes/s | %.0f %% of ceiling |",
                    b.burstCount, b.burstPerSecond, e.offeredPerSecond, 100 * e.offeredPerSecond / b.burstPerSecond))
        }
        print("")
    }

    static func row(_ name: String, _ samples: [Double]) {
        let s = SortedSamples(samples)
        guard !s.isEmpty else { print("| \(name) | – | – | – | 0 |"); return }
        print(
            "| \(name) | "
                + String(
                    format: "%.0f ms | %.0f ms | %.0f ms | %d |", s.percentile(50) * 1000, s.percentile(99) * 1000,
                    s.max * 1000, s.count))
    }
}
