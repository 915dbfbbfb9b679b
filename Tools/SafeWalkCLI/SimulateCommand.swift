import ArgumentParser
import Dispatch
import Foundation
import SafeWalkCore
import SafeWalkMQTT

/// `safewalk simulate`: a walker's phone and tracker, for demos and manual tests.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Simulate a walker's phone and tracker: presence, start, fixes and check-in answers.",
        discussion: """
            Connects as the walker's device with a Last Will of presence `offline`, publishes \
            presence `online`, sends `start` (or `startWalk` with --destination and --minutes), \
            then a fix every --interval along the route. It answers every check-in (a `checking` \
            status or a companion prompt on chat) with the quick reply "I'm okay 👍" until \
            --go-silent-after, when it stops answering (and with --stop-moving, stops moving), so \
            the watchdog escalates. Ctrl-C sends `stop` and presence `offline`, then exits.

            Every action is sent as a device must send it: listening on {w}/action/result first, \
            then repeated with the same id every --repeat-every until the watchdog's answer \
            (printed: ok, or the error code and message) or --answer-timeout. Refusals of the \
            device's input on {w}/rejected are printed too. The `stop` sent on Ctrl-C is repeated \
            the same way; a second Ctrl-C quits at once.

            Hold-to-release: --hold red presses the button at the start (`hold`, then `holding` \
            every --heartbeat); --release-after lifts the finger (`release`, panic at once), \
            --drop-hold-after stops the heartbeats (the watchdog raises the panic when two are \
            missing), --cancel-hold-after slides off (`cancelHold`). PINs: --set-pins 1234:9876 \
            sets a cancel and a duress PIN at the start; --end-with-pin makes the final `stop` \
            (and --im-safe-after's `imSafe`) carry a PIN. PINs are never printed.

            Route files: JSON `[{"lat": 30.2849, "lon": -97.7341}, ...]` or CSV lines `lat,lon` \
            (a header and # comments allowed); walked there and back in steps of --step metres. \
            Without --route the walker wanders randomly around UT Austin (30.2849, -97.7341), \
            8–15 m between fixes, within 400 m of the start.

            Durations: 30s, 2m, 1h, 500ms, or plain seconds (1.5).
            """)

    @Option(help: "The walker id (also the username unless --username is given).")
    var walker: String

    @Option(help: "A route file (JSON or CSV, see above).")
    var route: String?

    @Flag(help: "Wander randomly around UT Austin (the default without --route).")
    var random = false

    @Option(help: "Seed for --random, to repeat a walk exactly.")
    var seed: UInt64?

    @Flag(help: "Answer every check-in (the default).")
    var answer = false

    @Option(name: .customLong("go-silent-after"), help: "Stop answering check-ins after this long (e.g. 30s).")
    var goSilentAfter: DurationValue?

    @Flag(name: .customLong("stop-moving"), help: "Also stand still once silent.")
    var stopMoving = false

    @Option(help: "Start a walk to this destination (startWalk) instead of a plain watch; needs --minutes.")
    var destination: String?

    @Option(help: "The walk's expected duration in minutes (with --destination).")
    var minutes: Double?

    @Option(help: "Time between fixes.")
    var interval = DurationValue(seconds: 5)

    @Option(help: "Metres between fixes along a --route.")
    var step = 12.0

    @Option(help: "Stop after this long (default: run until Ctrl-C).")
    var duration: DurationValue?

    @Flag(
        name: .customLong("no-stop"),
        help: "At the end, just disconnect: no `stop`, and the Last Will reports the tracker offline.")
    var noStop = false

    @OptionGroup(title: "Actions") var actions: SimulateActionOptions

    @OptionGroup var broker: BrokerOptions

    func validate() throws {
        _ = try parsedWalker(walker)
        if route != nil && random { throw ValidationError("--route and --random exclude each other") }
        if answer && goSilentAfter != nil { throw ValidationError("--answer and --go-silent-after exclude each other") }
        if stopMoving && goSilentAfter == nil { throw ValidationError("--stop-moving needs --go-silent-after") }
        if (destination == nil) != (minutes == nil) { throw ValidationError("--destination and --minutes go together") }
        if let minutes, !(minutes.isFinite && minutes > 0 && minutes <= Action.maxWalkMinutes) {
            throw ValidationError("--minutes must be > 0 and at most \(Int(Action.maxWalkMinutes)) (a day)")
        }
        if let destination, destination.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--destination must not be empty")
        }
        if interval.seconds <= 0 { throw ValidationError("--interval must be > 0") }
        if !(step.isFinite && step > 0) { throw ValidationError("--step must be > 0") }
        if actions.endWithPin != nil && noStop && actions.imSafeAfter == nil {
            throw ValidationError("--end-with-pin needs a final stop (not --no-stop) or --im-safe-after")
        }
    }

    /// The simulation these arguments describe (reading the route file, if any).
    func simulationSettings(prefix: String) throws -> (SimulationSettings, WalkPath) {
        let path: WalkPath
        if let route {
            path = .route(RoutePath(waypoints: try RouteFile.load(path: route), stepMeters: step))
        } else {
            path = .random(seed.map { RandomWalk(seed: $0) } ?? RandomWalk())
        }
        var settings = SimulationSettings(
            walker: try parsedWalker(walker), prefix: prefix, interval: interval.seconds,
            goSilentAfter: goSilentAfter?.seconds, stopMovingWhenSilent: stopMoving,
            walk: destination.flatMap { d in minutes.map { (d, $0) } }, duration: duration?.seconds,
            stopAtEnd: !noStop)
        actions.apply(to: &settings)
        return (settings, path)
    }

    func run() async throws {
        let brokerSettings = try broker.settings(defaultUsername: walker)
        let (settings, path) = try simulationSettings(prefix: brokerSettings.prefix)
        let client = try await BrokerConnection.connect(
            brokerSettings, clientID: "safewalk-sim-\(walker)",
            lastWill: WalkerSimulation.lastWill(walker: settings.walker, prefix: settings.prefix))
        let printer = SimulationPrinter(walker: walker, colour: Terminal.stdoutSupportsColour())
        let simulation = WalkerSimulation(
            settings: settings, path: path, bus: client,
            clock: SystemSimulationClock(), events: { printer.print($0) })
        let task = Task { try await simulation.run() }
        let signals = SignalWatcher.onInterrupt { task.cancel() }
        defer { signals.cancel() }
        do {
            try await task.value
        } catch {
            await client.shutdown()
            throw error
        }
        if noStop {
            // Vanish without DISCONNECT so the broker publishes the Last Will, as a lost phone would.
            Foundation.exit(0)
        }
        await client.shutdown()
    }
}
