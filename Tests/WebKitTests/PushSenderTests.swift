import Crypto
import Foundation
import Logging
import SafeWalkWebKit
import Synchronization
import Testing

/// How one push is sent: what a push service's answers lead to, with a scripted service and the
/// waits recorded instead of slept.
@Suite struct PushSenderTests {
    /// Answers from a script (then 201) and records every request.
    final class ScriptedTransport: PushTransport {
        let script: Mutex<[Result<PushResponse, URLError>]>
        let requests = Mutex<[PushRequest]>([])

        init(_ script: [Result<PushResponse, URLError>]) { self.script = Mutex(script) }

        func post(_ request: PushRequest, timeout: Duration) async throws -> PushResponse {
            requests.withLock { $0.append(request) }
            let next = script.withLock { $0.isEmpty ? .success(PushResponse(status: 201)) : $0.removeFirst() }
            return try next.get()
        }
    }

    static let subscription = try! PushSubscription(
        endpoint: "https://fcm.googleapis.com/fcm/send/abc",
        p256dh: PushBase64URL.encode(P256.KeyAgreement.PrivateKey().publicKey.x963Representation),
        auth: PushBase64URL.encode(Data(repeating: 3, count: 16)), settings: PushSettings())
    static let message = PushMessage(
        title: PushTriggers.checkInTitle, body: "Tap to tell SafeWalk you're okay.", tag: "checkin", urgency: .high,
        ttl: 120)

    func send(_ script: [Result<PushResponse, URLError>], attempts: Int = 4) async -> (
        PushSender.Outcome, [PushRequest], [Duration]
    ) {
        let transport = ScriptedTransport(script)
        let waits = Mutex<[Duration]>([])
        var settings = PushSettings()
        settings.attempts = attempts
        let sender = PushSender(
            transport: transport, vapid: VAPID(key: P256.Signing.PrivateKey(), subject: "mailto:ops@example.org"),
            settings: settings, logger: Logger(label: "push-test"),
            sleep: { wait in waits.withLock { $0.append(wait) } })
        let outcome = await sender.send(Self.message, to: Self.subscription)
        return (outcome, transport.requests.withLock { $0 }, waits.withLock { $0 })
    }

    @Test func aPushCarriesTheHeadersOfRFC8030And8292() async throws {
        let (outcome, requests, waits) = await send([])
        #expect(outcome == .delivered && waits.isEmpty)
        let request = try #require(requests.first)
        let headers = Dictionary(uniqueKeysWithValues: request.headers.map { ($0.name, $0.value) })
        #expect(headers["TTL"] == "120" && headers["Urgency"] == "high")
        #expect(headers["Content-Encoding"] == "aes128gcm")
        #expect(headers["Authorization"]?.hasPrefix("vapid t=") == true)
        #expect(request.endpoint == Self.subscription.endpoint)
        #expect(request.body.count < 4096)
    }

    @Test(arguments: [404, 410])
    func goneMeansTheSubscriptionIsForgottenAndNotRetried(status: Int) async {
        let (outcome, requests, _) = await send([.success(PushResponse(status: status))])
        #expect(outcome == .gone && requests.count == 1)
    }

    @Test func busyServicesAreRetriedWithADoublingDelay() async {
        let (outcome, requests, waits) = await send([
            .success(PushResponse(status: 503)), .failure(URLError(.timedOut)), .success(PushResponse(status: 502)),
        ])
        #expect(outcome == .delivered && requests.count == 4)
        #expect(waits == [.seconds(2), .seconds(4), .seconds(8)])
    }

    @Test func retryAfterIsHonouredUpToTheCap() async {
        let (outcome, _, waits) = await send([
            .success(PushResponse(status: 429, retryAfter: "7")),
            .success(PushResponse(status: 429, retryAfter: "999")),
        ])
        #expect(outcome == .delivered && waits == [.seconds(7), .seconds(60)])
    }

    @Test func retriesAreBounded() async {
        let (outcome, requests, waits) = await send(Array(repeating: .success(PushResponse(status: 500)), count: 10))
        #expect(outcome == .failed && requests.count == 4 && waits.count == 3)
    }

    @Test(arguments: [400, 401, 403, 413])
    func aRefusalIsNotRetried(status: Int) async {
        let (outcome, requests, _) = await send([.success(PushResponse(status: status))])
        #expect(outcome == .failed && requests.count == 1)
    }
}
