import ArgumentParser
import BenchSupport
import Foundation

/// The circle's load figure (issue 19): the real release `contacts-store` on a real Mosquitto
/// (plain, anonymous, loopback). Sets up `--users` users each with `--followers` SOS contacts
/// through the real circle commands, then times an escalation to every SOS contact's inbox and a
/// position to every live view, each beside the broker's own fan-out of the same message to as
/// many subscribers in the same run, and reads contacts-store's CPU and memory from /proc.
///
///   swift build -c release --product contacts-store
///   swift build -c release --product circle-bench
///   .build/release/circle-bench [--users 10000] [--followers 5] [--escalations 1000] [--quick]
@main
struct CircleBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "circle-bench",
        abstract: "contacts-store's circle under load: escalation → SOS inboxes, position → live views, memory.")

    @Flag(help: "A small run: 500 users, 100 escalations and incidents, 10 s of positions.") var quick = false
    @Option(help: "Users (default 10,000; 500 with --quick).") var users: Int?
    @Option(help: "SOS contacts (and followers) per user.") var followers = 5
    @Option(help: "Escalations to time (default 1,000; 100 with --quick).") var escalations: Int?
    @Option(help: "Escalations per second.") var escalationRate: Double = 50
    @Option(help: "Open incidents while positions are timed (default 1,000; 100 with --quick).") var incidents: Int?
    @Option(help: "Measured seconds of positions (default 30; 10 with --quick).") var seconds: Double?
    @Option(help: "Seconds of positions of walkers without an incident alone, for their CPU cost.")
    var dropSeconds: Double?
    @Option(help: "Seconds between two positions of one walker (walking pace: 5).") var interval: Double = 5
    @Option(help: "Set-up commands in flight at once.") var window = 64

    var plan: CirclePlan {
        CirclePlan(
            users: users ?? (quick ? 500 : 10_000), followers: followers,
            escalations: escalations ?? (quick ? 100 : 1000), escalationRate: escalationRate,
            incidents: incidents ?? (quick ? 100 : 1000), seconds: seconds ?? (quick ? 10 : 30),
            dropSeconds: dropSeconds ?? (quick ? 5 : 10), interval: interval, window: window)
    }

    func validate() throws {
        let plan = plan
        guard plan.users >= 2, (1..<plan.users).contains(plan.followers) else {
            throw ValidationError("--followers must be 1 to --users − 1, with at least 2 users.")
        }
        guard (1...plan.users).contains(plan.escalations), (1...plan.users).contains(plan.incidents),
            plan.incidents < plan.users
        else { throw ValidationError("--escalations and --incidents must be 1 to --users (incidents fewer).") }
        guard plan.escalationRate > 0, plan.seconds > 0, plan.dropSeconds > 0, plan.interval > 0, plan.window > 0
        else { throw ValidationError("Rates, seconds, --interval and --window must be positive.") }
    }

    func run() async throws {
        let plan = plan
        let run = try await CircleRun.start(plan)
        do {
            try await CircleReport.print(plan: plan, run: run)
        } catch {
            await run.stop()
            throw error
        }
        await run.stop()
    }
}
