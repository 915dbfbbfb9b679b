import BenchSupport
import Foundation

/// Runs the phases in order and prints each figure beside its same-run baseline.
enum CircleReport {
    static func print(plan: CirclePlan, run: CircleRun) async throws {
        let mb = { (bytes: Int) in String(format: "%.1f MB", Double(bytes) / 1_048_576) }
        let empty = run.storeResidentBytes()
        Swift.print(
            "circle: \(plan.users) users × \(plan.followers) SOS contacts (a ring), contacts-store RSS at start "
                + mb(empty))

        // 1. Set-up through the real inputs.
        let setup = CircleSetup(run: run)
        let members = try await setup.announceMembers()
        let withMembers = run.storeResidentBytes()
        Swift.print(
            String(format: "set-up: %d members known in %.1f s (%.0f/s)", members.count, members.seconds, members.rate))
        let phases = try await setup.buildCircles()
        for phase in phases {
            let refused = phase.refused.isEmpty ? "none refused" : "REFUSED \(phase.refused)"
            Swift.print(
                String(
                    format: "set-up: %d %@ commands answered in %.1f s (%.0f commands/s, %d in flight), %@",
                    phase.count, phase.name, phase.seconds, phase.rate, plan.window, refused))
        }
        let commandSeconds = phases.map(\.seconds).reduce(0, +)
        let built = run.storeResidentBytes()
        Swift.print(
            String(
                format: "set-up total: %.1f s (%d commands, %.0f/s, plus members); SQLite %@",
                members.seconds + commandSeconds, plan.setupCommands, Double(plan.setupCommands) / commandSeconds,
                mb(run.storeDataBytes())))

        // 2. Escalation → every SOS contact's inbox.
        let load = CircleLoad(run: run)
        try await load.listen()
        try await load.escalate()
        let alerts = load.alerts.withLock { $0 }
        let alertBase = load.escalationBaseline.withLock { $0 }
        let ours = SortedSamples(alerts.samples)
        let base = SortedSamples(alertBase.samples)
        Swift.print(
            String(
                format: "\nescalations: %d at %.0f/s, each to %d inboxes", plan.escalations, plan.escalationRate,
                plan.followers))
        Swift.print("escalation → all SOS inboxes:           " + ours.millisecondsSummary)
        Swift.print("broker alone → \(plan.followers) subscribers (baseline): " + base.millisecondsSummary)
        Swift.print(ratios(ours, base) + missed(alerts.missing, alerts.unexpected, alertBase.missing))

        // 3. Position → every shared view, and the cost of positions nobody may see.
        try await load.openIncidents()
        let open = run.storeResidentBytes()
        let idleStart = run.storeCPUSeconds()
        try await Task.sleep(for: .seconds(3))
        let idleRate = (run.storeCPUSeconds() - idleStart) / 3
        let dropStart = (run.storeCPUSeconds(), ContinuousClock.now)
        let dropped = try await load.crowd(seconds: plan.dropSeconds)
        try await Task.sleep(for: .seconds(1))
        let dropCPU = run.storeCPUSeconds() - dropStart.0 - idleRate * (ContinuousClock.now - dropStart.1).seconds
        let perDropped = dropCPU / Double(dropped)

        let before = (
            run.storeCPUSeconds(), await run.brokerCPUSeconds(), run.storeThreadCPUSeconds(), ContinuousClock.now
        )
        async let crowdCount = load.crowd(seconds: plan.seconds)
        let watchedCount = try await load.watched(seconds: plan.seconds)
        let others = try await crowdCount
        await load.drainViews()
        let elapsed = (ContinuousClock.now - before.3).seconds
        let mixedCPU = run.storeCPUSeconds() - before.0 - idleRate * elapsed
        let brokerCPU = await run.brokerCPUSeconds() - before.1
        let threads = run.storeThreadCPUSeconds().map { ($0.key, $0.value - (before.2[$0.key] ?? 0)) }
        let views = load.views.withLock { $0 }
        let viewBase = load.positionBaseline.withLock { $0 }
        let viewSamples = SortedSamples(views.samples)
        let viewBaseSamples = SortedSamples(viewBase.samples)
        Swift.print(
            String(
                format:
                    "\npositions: %d walkers with an open incident (%d views) at %.0f fixes/s, %d without at %.0f/s, %.0f s",
                plan.incidents, plan.incidents * plan.followers, Double(plan.incidents) / plan.interval,
                plan.users - plan.incidents, Double(plan.users - plan.incidents) / plan.interval, plan.seconds))
        Swift.print("position → all shared views:            " + viewSamples.millisecondsSummary)
        Swift.print("broker alone → \(plan.followers) subscribers (baseline): " + viewBaseSamples.millisecondsSummary)
        Swift.print(ratios(viewSamples, viewBaseSamples) + missed(views.missing, views.unexpected, viewBase.missing))
        let perWatched = (mixedCPU - Double(others) * perDropped) / Double(watchedCount)
        Swift.print(
            String(
                format: "contacts-store CPU: %.1f µs per position nobody may see (%d alone in %.0f s), "
                    + "%.1f µs per position with %d views (%d + %d in the timed run: %.2f s); idle %.1f ms/s",
                perDropped * 1e6, dropped, plan.dropSeconds, perWatched * 1e6, plan.followers, watchedCount, others,
                mixedCPU, idleRate * 1000))
        Swift.print(
            String(
                format: "broker CPU in the timed run: %.2f s (%.1f µs per position published)", brokerCPU,
                brokerCPU / Double(watchedCount + others) * 1e6))
        let busiest = threads.filter { $0.1 > 0 }.sorted { $0.1 > $1.1 }.prefix(6)
        Swift.print(
            "contacts-store threads, CPU s in the timed run: "
                + busiest.map { String(format: "%@ %.2f", $0.0, $0.1) }.joined(separator: ", "))

        // 5. Memory.
        let after = run.storeResidentBytes()
        Swift.print(
            String(
                format: "\nRSS: %@ at start, %@ with %d members, %@ after set-up (%.0f B per user), "
                    + "%@ with %d incidents open, %@ after the positions",
                mb(empty), mb(withMembers), plan.users, mb(built), Double(built - empty) / Double(plan.users), mb(open),
                plan.incidents, mb(after)))
        load.stop()
    }

    static func ratios(_ ours: SortedSamples, _ base: SortedSamples) -> String {
        String(
            format: "ratio p50 %.2f, p99 %.2f (contacts-store / broker alone)",
            ours.percentile(50) / base.percentile(50),
            ours.percentile(99) / base.percentile(99))
    }

    static func missed(_ missing: Int, _ unexpected: Int, _ baselineMissing: Int) -> String {
        "; incomplete \(missing) (baseline \(baselineMissing)), unexpected copies \(unexpected)"
    }
}
