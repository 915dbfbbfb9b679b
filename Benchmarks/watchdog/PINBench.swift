import BenchSupport
import Foundation
import SafeWalkCore
import WatchdogKit

/// What a PIN costs the watchdog's event loop (every walker's events wait while it runs), beside
/// the cost of applying the same `imSafe` without a PIN, measured in the same run; and whether
/// a duress PIN takes measurably longer than a cancel PIN (it must not: timing must not give a
/// duress away).
enum PINBench {
    static func run(samples: Int) {
        let hasher = PINHasher()
        let stored = hasher.hashes(for: PINChange(cancel: PIN("2468")!, duress: PIN("1357")!))
        let machine = WatchMachine()
        let walker = try! WalkerID("bench")
        var watch = Watch(walker: walker, timers: WatchTimers(watchedSince: 0, lastCheckInAt: 0), pins: stored)
        watch.incident = Incident(reason: .noReply, level: .amber, at: 120)
        let plain = Action(id: "end", kind: .imSafe)

        func time(_ body: () -> Void) -> [Double] {
            (0..<samples).map { _ in
                let start = ContinuousClock.now
                body()
                return Measure.elapsed(since: start)
            }
        }
        // Interleaved rounds, so machine noise falls on every kind alike.
        var step: [Double] = []
        var cancel: [Double] = []
        var duress: [Double] = []
        var wrong: [Double] = []
        for _ in 0..<5 {
            step += time { _ = machine.step(watch, .action(plain, ActionCheck(pin: .cancel)), now: 130) }
            cancel += time { _ = hasher.verdict(PIN("2468"), against: stored) }
            duress += time { _ = hasher.verdict(PIN("1357"), against: stored) }
            wrong += time { _ = hasher.verdict(PIN("0000"), against: stored) }
        }
        let median = { (samples: [Double]) in SortedSamples(samples).percentile(50) }
        print(String(format: "imSafe step without hashing (baseline): p50 %.2f µs", median(step) * 1e6))
        for (name, samples) in [("cancel", cancel), ("duress", duress), ("wrong", wrong)] {
            print(
                String(
                    format: "PIN check, %@ PIN: p50 %.2f ms, p99 %.2f ms = %.0f× the step",
                    name, median(samples) * 1e3, SortedSamples(samples).percentile(99) * 1e3,
                    median(samples) / median(step)))
        }
        print(
            String(
                format: "duress / cancel: %.3f (PBKDF2-HMAC-SHA256, %d iterations, n=%d each)",
                median(duress) / median(cancel), hasher.rounds, cancel.count))
    }
}
