import Foundation
import Logging
import Metrics
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import ServiceLifecycle
import Synchronization

/// Web Push for the walker's app (docs/services/web.md, "Web Push"): reads `{w}/prompt`,
/// `{w}/alert` and `{w}/inbox` for every walker, turns each into at most one push
/// (``PushTriggers``) and sends it to every subscription of the walker's account.
///
/// The broker's reader only decodes and queues: sending waits on push services, which can be slow
/// or down, so it happens behind a bounded queue (the oldest waiting push is dropped, and counted,
/// when it is full), a few at a time.
public final class WebPush: Service, Sendable {
    public let vapid: VAPID
    let database: WebDatabase
    let settings: PushSettings
    let prefix: String
    let logger: Logger
    let sender: PushSender
    let reporter: RejectionReporter
    let now: @Sendable () -> Date
    let subscriptions: [MQTTSubscription]
    let queue: AsyncStream<Job>
    let queueInput: AsyncStream<Job>.Continuation
    /// Prompt and inbox ids already pushed, so a QoS 1 repeat pushes nothing.
    let seen = Mutex(RecentKeys(limit: 4_096))
    let transportShutdown: (@Sendable () async -> Void)?

    struct Job: Sendable {
        var walker: WalkerID
        var message: PushMessage
    }

    /// Loads (or makes) the VAPID key and subscribes to the three topics.
    public static func connect(
        bus: any MessageBus, prefix: String, database: WebDatabase, settings: PushSettings, logger: Logger,
        transport: (any PushTransport)? = nil, now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) async throws -> WebPush {
        let vapid = VAPID(key: try await database.vapidKey(), subject: settings.subject)
        // web's own HTTP client when none is given; it is shut down when the service stops.
        let owned: HTTPPushTransport? = transport == nil ? HTTPPushTransport() : nil
        let shutdown: (@Sendable () async -> Void)? =
            if let owned { { await owned.shutdown() } } else { nil }
        let sender = PushSender(
            transport: transport ?? owned!, vapid: vapid, settings: settings, logger: logger, now: now, sleep: sleep)
        var subscriptions: [MQTTSubscription] = []
        for kind in [Topic.Kind.prompt, .alert, .inbox] {
            subscriptions.append(
                try await bus.subscribe(TopicFilter.every(kind, prefix: prefix).rawValue, qos: .atLeastOnce))
        }
        logger.info("web push ready", metadata: ["subject": "\(settings.subject)"])
        return WebPush(
            vapid: vapid, database: database, settings: settings, prefix: prefix, logger: logger, sender: sender,
            reporter: RejectionReporter(service: .web, prefix: prefix, bus: bus, logger: logger), now: now,
            subscriptions: subscriptions, transportShutdown: shutdown)
    }

    init(
        vapid: VAPID, database: WebDatabase, settings: PushSettings, prefix: String, logger: Logger,
        sender: PushSender, reporter: RejectionReporter, now: @escaping @Sendable () -> Date,
        subscriptions: [MQTTSubscription], transportShutdown: (@Sendable () async -> Void)?
    ) {
        self.vapid = vapid
        self.database = database
        self.settings = settings
        self.prefix = prefix
        self.logger = logger
        self.sender = sender
        self.reporter = reporter
        self.now = now
        self.subscriptions = subscriptions
        self.transportShutdown = transportShutdown
        (queue, queueInput) = AsyncStream.makeStream(
            of: Job.self, bufferingPolicy: .bufferingNewest(settings.queueLimit))
    }

    public func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { [self] in await drain() }
            for subscription in subscriptions {
                group.addTask { [self] in
                    for await message in subscription.cancelOnGracefulShutdown() { await receive(message) }
                    queueInput.finish()
                }
            }
        }
        await transportShutdown?()
    }

    /// Sends queued pushes, at most ``PushSettings/concurrency`` at once.
    func drain() async {
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for await job in queue {
                if running >= settings.concurrency {
                    await group.next()
                    running -= 1
                }
                group.addTask { [self] in await deliver(job) }
                running += 1
            }
        }
    }

    /// Queues a push for `walker` (tests, and the broker's reader).
    func enqueue(_ message: PushMessage, for walker: WalkerID) {
        if case .dropped = queueInput.yield(Job(walker: walker, message: message)) {
            Counter(label: "safewalk_push_total", dimensions: [("service", "web"), ("result", "dropped")]).increment()
            logger.warning("push queue full: the oldest push was dropped", metadata: ["walker": "\(walker)"])
        }
    }

    func deliver(_ job: Job) async {
        let targets: [PushSubscription]
        do {
            targets = try await database.pushSubscriptions(usernameKey: UsernameRule.key(job.walker))
        } catch {
            logger.error("push subscriptions not read", metadata: ["walker": "\(job.walker)", "error": "\(error)"])
            return
        }
        for subscription in targets where await sender.send(job.message, to: subscription) == .gone {
            do {
                try await database.forgetPushEndpoint(subscription.endpoint.absoluteString)
                logger.info("push subscription gone, forgotten", metadata: ["walker": "\(job.walker)"])
            } catch {
                logger.error("gone push subscription not forgotten", metadata: ["error": "\(error)"])
            }
        }
    }
}

/// The most recent keys, oldest forgotten first.
struct RecentKeys {
    let limit: Int
    private var order: [String] = []
    private var keys: Set<String> = []
    private var start = 0

    init(limit: Int) { self.limit = limit }

    /// False if `key` was already there.
    mutating func insert(_ key: String) -> Bool {
        guard keys.insert(key).inserted else { return false }
        if order.count < limit {
            order.append(key)
        } else {
            keys.remove(order[start])
            order[start] = key
            start = (start + 1) % limit
        }
        return true
    }
}
