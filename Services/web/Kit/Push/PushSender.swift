import Foundation
import Logging
import Metrics

/// Sends one message to one subscription: encrypts it (RFC 8291), signs for the push service
/// (RFC 8292), posts it, and retries what may succeed later (429, 5xx, a network failure) with a
/// doubling delay, or the service's `Retry-After`, a bounded number of times.
public struct PushSender: Sendable {
    public enum Outcome: String, Equatable, Sendable {
        case delivered
        /// 404 or 410: the subscription is gone for good (RFC 8030 §7.3); it is forgotten.
        case gone
        /// Refused for a reason a retry will not fix (400, 403 wrong key, 413), or retries ran out.
        case failed
    }

    let transport: any PushTransport
    let vapid: VAPID
    let settings: PushSettings
    let logger: Logger
    let now: @Sendable () -> Date
    /// Waits between attempts (the service's `Task.sleep`, a recorder in tests).
    let sleep: @Sendable (Duration) async throws -> Void

    public init(
        transport: any PushTransport, vapid: VAPID, settings: PushSettings, logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.transport = transport
        self.vapid = vapid
        self.settings = settings
        self.logger = logger
        self.now = now
        self.sleep = sleep
    }

    public func send(_ message: PushMessage, to subscription: PushSubscription) async -> Outcome {
        let outcome = await attempt(message, to: subscription)
        Counter(label: "safewalk_push_total", dimensions: [("service", "web"), ("result", outcome.rawValue)])
            .increment()
        return outcome
    }

    func attempt(_ message: PushMessage, to subscription: PushSubscription) async -> Outcome {
        let origin = VAPID.audience(of: subscription.endpoint)
        guard let receiver = subscription.publicKey,
            let body = try? WebPushEncryption.encrypt(try message.json(), to: receiver, authSecret: subscription.auth)
        else {
            logger.error("push not encrypted", metadata: ["pushService": "\(origin)"])
            return .failed
        }
        var delay = settings.retryDelay
        for attempt in 1...settings.attempts {
            let status: Int
            var retryAfter: Duration?
            do {
                // A fresh token each time: cheap (one ECDSA signature), and never stale after a wait.
                let request = PushRequest(
                    endpoint: subscription.endpoint,
                    headers: [
                        ("TTL", "\(message.ttl)"), ("Urgency", message.urgency.rawValue),
                        ("Content-Encoding", "aes128gcm"), ("Content-Type", "application/octet-stream"),
                        ("Authorization", try vapid.authorization(for: subscription.endpoint, now: now())),
                    ], body: body)
                let response = try await transport.post(request, timeout: settings.requestTimeout)
                status = response.status
                retryAfter = response.retryAfter.flatMap(Int.init).map { .seconds(max(0, $0)) }
            } catch {
                status = 0  // a network failure: worth another try
                logger.debug("push attempt failed", metadata: ["pushService": "\(origin)", "error": "\(error)"])
            }
            switch status {
            case 200..<300: return .delivered
            case 404, 410: return .gone
            case 0, 429, 500...599:
                guard attempt < settings.attempts else { break }
                let wait = min(retryAfter ?? delay, settings.maxRetryDelay)
                logger.info(
                    "push service busy, retrying",
                    metadata: ["pushService": "\(origin)", "status": "\(status)", "attempt": "\(attempt)"])
                do { try await sleep(wait) } catch { return .failed }  // shutting down
                delay = min(delay * 2, settings.maxRetryDelay)
                continue
            default:
                logger.warning("push refused", metadata: ["pushService": "\(origin)", "status": "\(status)"])
                return .failed
            }
        }
        logger.warning("push not delivered after retries", metadata: ["pushService": "\(origin)"])
        return .failed
    }
}
