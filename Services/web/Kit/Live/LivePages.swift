import Crypto
import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import ServiceLifecycle
import Synchronization

/// Contacts' live pages, fed from the broker: reads `_ladder/+`, `_incidents/+` and every
/// walker's `{w}/position` and `{w}/status` (only its walk) into a ``PageBoard``, keeps the pages
/// it has seen in web's store, wakes the pages' event streams, and hands "I'm on it" and the SMS
/// gateway's receipts to the notifier (`_acks/request` → `_acks/result`, `_receipts/gateway`).
///
/// Positions and statuses come from one wildcard subscription each, filtered by the board, rather
/// than one subscription per walker while an incident is open: `MessageBus` cannot unsubscribe,
/// so per-walker subscriptions would pile up at the broker for as long as web runs, and a
/// subscription made when a ladder arrives would race the retained position anyway. The cost is
/// reading every walker's position (at most one per walker every 0.5 s, location-ingest's pace)
/// and status (one per change of a watch).
public final class LivePages: Service, Sendable {
    public enum Lookup: Sendable {
        case live(PageRecord, PageSnapshot)
        /// Revoked, or closed longer than the grace period: 410.
        case expired
        /// Never seen: 404.
        case unknown
    }

    let bus: any MessageBus
    let prefix: String
    let database: WebDatabase
    let settings: LiveSettings
    let logger: Logger
    let reporter: RejectionReporter
    let now: @Sendable () -> EpochSeconds
    let board: Mutex<PageBoard>
    let watchers = PageWatchers()
    let answers = AwaitedAnswers<String, AcknowledgementResult>()
    /// Keys the hidden field of each page's button (``buttonKey(_:)``).
    let buttonSecret: SymmetricKey
    let subscriptions: [MQTTSubscription]

    /// Loads the pages still alive, then subscribes (answers first, so none precedes its reader).
    public static func connect(
        bus: any MessageBus, prefix: String, database: WebDatabase, settings: LiveSettings, logger: Logger,
        now: @escaping @Sendable () -> EpochSeconds = { Date().timeIntervalSince1970 }
    ) async throws -> LivePages {
        let pages = try await database.livePages(at: now(), grace: settings.grace)
        let secret = try await database.secret(named: "page-button")
        var subscriptions: [MQTTSubscription] = []
        subscriptions.append(
            try await bus.subscribe(Topic.acknowledgementResult.name(prefix: prefix), qos: .atLeastOnce))
        for kind in [Topic.Kind.ladder, .incident, .position, .status] {
            subscriptions.append(
                try await bus.subscribe(TopicFilter.every(kind, prefix: prefix).rawValue, qos: .atLeastOnce))
        }
        logger.info("live pages ready", metadata: ["pages": "\(pages.count)"])
        return LivePages(
            bus: bus, prefix: prefix, database: database, settings: settings, logger: logger, now: now,
            board: PageBoard(pages: pages), secret: SymmetricKey(data: secret), subscriptions: subscriptions)
    }

    init(
        bus: any MessageBus, prefix: String, database: WebDatabase, settings: LiveSettings, logger: Logger,
        now: @escaping @Sendable () -> EpochSeconds, board: PageBoard, secret: SymmetricKey,
        subscriptions: [MQTTSubscription]
    ) {
        self.bus = bus
        self.prefix = prefix
        self.database = database
        self.settings = settings
        self.logger = logger
        self.now = now
        self.board = Mutex(board)
        self.buttonSecret = secret
        self.subscriptions = subscriptions
        reporter = RejectionReporter(service: .web, prefix: prefix, bus: bus, logger: logger)
    }

    /// Reads every subscription until shutdown; then ends the event streams and fails whoever
    /// still waits for an answer.
    public func run() async throws {
        await subscriptions.receiveUntilShutdown { [self] message in await receive(message) }
        watchers.finishAll()
        answers.failAll(CancellationError())
    }

    /// The page whose token has this digest.
    public func lookup(_ digest: String) async throws -> Lookup {
        let at = now()
        let found = board.withLock { board -> (PageRecord, PageBoard.Walk, String?)? in
            board.view(digest).map { ($0.page, $0.walk, $0.answeredBy) }
        }
        if let (page, walk, answeredBy) = found, !page.isDead(at: at, grace: settings.grace) {
            return .live(page, PageSnapshot.make(page: page, walk: walk, answeredBy: answeredBy, now: at))
        }
        // Not on the board: dead long ago (the board forgets dead pages), or never seen.
        guard let stored = try await database.page(digest) else { return .unknown }
        return stored.isDead(at: at, grace: settings.grace) ? .expired : .unknown
    }

    /// The hidden field of a page's "I'm on it" form: HMAC-SHA256 of the page's digest under a
    /// secret only web has, so a form that works can only come from someone who loaded the page.
    public func buttonKey(_ digest: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data(digest.utf8), using: buttonSecret)
        return TokenText.base64URL(code)
    }

    func watch(_ walker: WalkerID) -> (
        stream: AsyncStream<PageWatchers.Tick>, continuation: AsyncStream<PageWatchers.Tick>.Continuation
    ) {
        watchers.watch(walker)
    }

    /// Event streams open now (tests, metrics).
    public var openStreams: Int { watchers.count }
}
