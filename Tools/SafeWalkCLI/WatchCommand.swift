import ArgumentParser
import Foundation
import SafeWalkCore
import SafeWalkMQTT

/// `safewalk watch [walker]`: a live, readable view of what happens to one walker or to all.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Watch status, chat, escalations, alerts and deliveries live.",
        discussion: """
            Prints one line per event: status (SAFE / CHECKING / ALERT with an mm:ss countdown), \
            check-in prompts, companion chat, replies, actions, escalations, alerts (with their \
            tel:/sms: actions) and delivery receipts; and the circle: answers to circle commands, \
            the circle when it changes (one compact line), inbox events (follow requests, \
            check-ins, home safe, alerts with their position) and the live views of people who \
            made this user an SOS contact ({walker}/shared/+, and when one is no longer shared). \
            In a terminal the bottom line keeps a live \
            countdown per walker and colours are on (NO_COLOR or --no-color turns them off). \
            Without a walker it shows every walker and the services' online/offline status; that \
            needs a login allowed to read everything (the `operator` user) on a secured broker.
            """)

    @Argument(help: "Only this walker (default: every walker).")
    var walker: String?

    @Flag(help: "Also show every position update.")
    var positions = false

    @Flag(name: .customLong("no-color"), help: "No ANSI colours even in a terminal.")
    var noColor = false

    @OptionGroup var broker: BrokerOptions

    func validate() throws {
        if let walker { _ = try parsedWalker(walker) }
    }

    func run() async throws {
        let settings = try broker.settings(defaultUsername: walker)
        let walkerID = try walker.map(parsedWalker)
        let client = try await BrokerConnection.connect(settings)
        let filter =
            walkerID.map { TopicFilter.walker($0, prefix: settings.prefix) }
            ?? TopicFilter.everything(prefix: settings.prefix)
        let subscription = try await client.subscribe(filter.rawValue, qos: .atLeastOnce)
        let live = Terminal.stdoutIsTerminal
        let screen = WatchScreen(
            formatter: WatchFormatter(
                style: Style(enabled: !noColor && Terminal.stdoutSupportsColour()),
                showPositions: positions),
            live: live)
        await screen.note("watching \(filter.rawValue) on \(settings.host):\(settings.port); Ctrl-C to stop")
        let signals = SignalWatcher.onInterrupt { subscription.cancel() }
        defer { signals.cancel() }
        let ticker = Task {
            while live && !Task.isCancelled {
                try await Task.sleep(for: .seconds(1))
                await screen.redraw(now: Date().timeIntervalSince1970)
            }
        }
        for await message in subscription {
            guard let (walker, event) = WatchEvent.decode(message, prefix: settings.prefix) else { continue }
            await screen.show(event, walker: walker, now: Date().timeIntervalSince1970)
        }
        ticker.cancel()
        await screen.finish()
        await client.shutdown()
    }
}

/// Serialises output: event lines scroll, and in a terminal the last line is the live status.
actor WatchScreen {
    private let formatter: WatchFormatter
    private let live: Bool
    private var board = WatchBoard()
    private var statusShown = false

    init(formatter: WatchFormatter, live: Bool) {
        self.formatter = formatter
        self.live = live
    }

    func note(_ text: String) {
        Terminal.write(formatter.style.dim(text) + "\n")
    }

    func show(_ event: WatchEvent, walker: WalkerID?, now: EpochSeconds) {
        board.apply(event, walker: walker)
        let replyBy = walker.flatMap { board.walkers[$0]?.replyBy }
        guard let line = formatter.line(event, walker: walker, replyBy: replyBy, now: now) else { return }
        Terminal.write(clearStatus() + line + "\n")
        redraw(now: now)
    }

    func redraw(now: EpochSeconds) {
        guard live else { return }
        let status = board.statusLine(now: now, style: formatter.style)
        guard !status.isEmpty else { return }
        Terminal.write(clearStatus() + status)
        statusShown = true
    }

    func finish() {
        if statusShown { Terminal.write("\n") }
    }

    private func clearStatus() -> String {
        guard statusShown else { return "" }
        statusShown = false
        return "\r\u{1B}[2K"
    }
}
