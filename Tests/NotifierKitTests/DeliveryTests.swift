import Foundation
import Logging
import NotifierKit
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// The notifier with its production channels against a fake Twilio (real HTTP, Twilio's wire
/// format), a real SQLite ledger, an in-memory bus and virtual time.
@Suite("Delivery through the device and a Twilio-compatible SMS gateway", .holdsResources)
struct DeliveryTests {
    static let settle = ["SAFEWALK_CONTACTS_SETTLE": "30"]

    func channels(_ gateway: SMSGatewayConfiguration, device: Bool = true) -> (InMemoryMessageBus) ->
        [any NotificationChannel]
    {
        { bus in
            (device ? [DeviceChannel(bus: bus, prefix: Fixtures.prefix)] : []) + [
                SMSHTTPChannel(configuration: gateway)
            ]
        }
    }

    @Test func threeContactsWithOneUndialableGiveTwoTextsAndOneFailedReceiptWithTheReason() async throws {
        let gateway = try await FakeTwilioGateway()
        let harness = try await NotifierHarness.start(
            clock: VirtualClock(autoAdvance: true), settings: Self.settle,
            channels: channels(gateway.configuration))
        try await harness.publish(Fixtures.escalation())
        let receipts = try await harness.nextReceipts(4)
        let sms = receipts.filter { $0.channel == "sms-http" }
        #expect(Set(sms.filter { $0.status == .sent }.map(\.recipient)) == ["+*******0101", "+********0958"])
        let failed = try #require(sms.first { $0.status == .failed })
        #expect(failed.reason == "undialable: The number contains letters.")
        #expect(failed.attempts == 0)
        #expect(receipts.filter { $0.channel == "device" }.map(\.status) == [.sent])

        let stats = try await gateway.stats()
        #expect(stats.accepted == ["+15125550101": 1, "+442079460958": 1])
        #expect(
            stats.bodies["+15125550101"]?.first?.contains("https://maps.google.com/?q=30.285000,-97.735000") == true)

        let alertMessage = try #require(try await harness.alerts.first(1).first)
        let alert = try SafeWalkJSON.decoder().decode(DeviceAlert.self, from: alertMessage.payload)
        let text = try #require(alert.actions.first { $0.url.hasPrefix("sms:") })
        let numbers = text.url.dropFirst("sms:".count).prefix { $0 != "?" }.split(separator: ",")
        #expect(numbers == ["+15125550101", "+442079460958"])
        #expect(text.title == "Text 2 contacts")
        #expect(alert.actions.first == AlertAction(title: "Call UT Police", url: "tel:+15124714441"))
        await harness.stop(); await gateway.shutdown()
    }

    @Test func gatewayFailingTwiceThenSucceedingDeliversWithTheAttemptsCounted() async throws {
        let gateway = try await FakeTwilioGateway()
        try await gateway.control(failNext: 2, status: 500)
        let clock = VirtualClock(autoAdvance: true, random: 0.5)
        let harness = try await NotifierHarness.start(
            contacts: [Fixtures.ana], clock: clock,
            settings: Self.settle.merging(["SAFEWALK_NOTIFY_BACKOFF": "1"]) { $1 },
            channels: channels(gateway.configuration, device: false))
        try await harness.publish(Fixtures.escalation())
        let receipt = try #require(try await harness.nextReceipts(1).first)
        #expect(receipt.status == .sent)
        #expect(receipt.attempts == 3)
        #expect(receipt.recipient == "+*******0101")
        let stats = try await gateway.stats()
        #expect(stats.requests == ["+15125550101": 3])
        #expect(stats.accepted == ["+15125550101": 1])
        // Backoff 1 s then 2 s, each at 75 % with the pinned jitter draw; 30 is the contacts settle.
        #expect(clock.sleeps.filter { $0 != 30 } == [0.75, 1.5])
        await harness.stop(); await gateway.shutdown()
    }

    /// The gateway takes the text but answers after the client's timeout: to the notifier that
    /// is a network error like any other, so it sends again, with the same `Idempotency-Key`.
    func textAnsweredTooLate(gatewayHonoursKeys: Bool) async throws -> (DeliveryReceipt, FakeSMSGateway.Stats) {
        let gateway = try await FakeTwilioGateway()
        try await gateway.control(slow: ["+15125550101": 2], idempotent: gatewayHonoursKeys)
        var configuration = gateway.configuration
        configuration.timeout = 0.5
        let harness = try await NotifierHarness.start(
            contacts: [Fixtures.ana], clock: VirtualClock(autoAdvance: true),
            settings: Self.settle.merging(["SAFEWALK_NOTIFY_BACKOFF": "1"]) { $1 },
            channels: channels(configuration, device: false))
        try await harness.publish(Fixtures.escalation())
        let receipt = try #require(try await harness.nextReceipts(1).first)
        let stats = try await gateway.stats()
        await harness.stop(); await gateway.shutdown()
        return (receipt, stats)
    }

    @Test func aTextTheGatewayTookButAnsweredTooLateForGoesOnceThroughAGatewayThatHonoursTheKey() async throws {
        let (receipt, stats) = try await textAnsweredTooLate(gatewayHonoursKeys: true)
        #expect(receipt.status == .sent)
        // At least one retry; more if this machine is slow enough for a replay to time out too.
        #expect(receipt.attempts >= 2)
        #expect(stats.requests == ["+15125550101": receipt.attempts])
        #expect(stats.accepted == ["+15125550101": 1])
        #expect(stats.replayed == receipt.attempts - 1)
        let key = DeliveryIdempotencyKey.key(escalationId: "esc-1", channel: "sms-http", target: "+15125550101")
        #expect(stats.keys["+15125550101"] == Array(repeating: key, count: receipt.attempts))
    }

    /// A gateway that ignores the key, as Twilio's Messages API must be assumed to: the contact gets the text twice. Sending again is
    /// the rule (a text that may not have left is never given up on); docs/services/notifier.md
    /// names this window.
    @Test func aGatewayThatIgnoresTheKeyTextsAgainRatherThanRiskSilence() async throws {
        let (receipt, stats) = try await textAnsweredTooLate(gatewayHonoursKeys: false)
        #expect(receipt.status == .sent)
        #expect(receipt.attempts >= 2)
        #expect(stats.accepted == ["+15125550101": receipt.attempts])
        #expect(stats.replayed == 0)
    }

    @Test func gatewayDownGivesFailedReceiptsAfterTheLastAttemptWhileTheDeviceAlertWentOutAtOnce() async throws {
        let deadPort = try Loopback.freePort()  // nothing listens: connection refused
        let gateway = SMSGatewayConfiguration(
            url: "http://127.0.0.1:\(deadPort)/2010-04-01/Accounts/AC1/Messages.json",
            user: "AC1", password: "x", timeout: 0.5)
        let clock = VirtualClock()
        let harness = try await NotifierHarness.start(
            contacts: [Fixtures.ana, Fixtures.ben], clock: clock,
            settings: Self.settle.merging(["SAFEWALK_NOTIFY_MAX_ATTEMPTS": "3"]) { $1 }, channels: channels(gateway))
        try await harness.publish(Fixtures.escalation())

        // Before any virtual time passes: the alert is out and receipted, the texts are backing off.
        let first = try await harness.nextReceipts(1)
        #expect(first.map(\.channel) == ["device"])
        #expect(first.map(\.status) == [.sent])
        #expect(try await harness.alerts.first(1).count == 1)
        await clock.waitForSleepers(3)  // the contacts settle and two recipients' backoffs
        let waiting = try await harness.ledger.progress(of: "esc-1").filter { $0.channel == "sms-http" }
        #expect(waiting.map(\.state) == [.pending, .pending])
        #expect(waiting.map(\.attempts) == [1, 1])

        clock.advance(by: 1000)
        await clock.waitForSleepers(2)
        clock.advance(by: 1000)
        let failed = try await harness.nextReceipts(2)
        #expect(failed.map(\.status) == [.failed, .failed])
        #expect(failed.map(\.attempts) == [3, 3])
        #expect(
            failed.allSatisfy {
                $0.reason?.contains("network") == true && $0.reason?.contains("after 3 attempts") == true
            })
        await harness.stop()
    }

    @Test func theSameEscalationIdTwiceSendsOnce() async throws {
        let gateway = try await FakeTwilioGateway()
        let harness = try await NotifierHarness.start(
            contacts: [Fixtures.ana], clock: VirtualClock(autoAdvance: true), settings: Self.settle,
            channels: channels(gateway.configuration))
        let event = Fixtures.escalation("esc-dup")
        try await harness.publish(event)
        try await harness.publish(event)  // a QoS 1 duplicate while the first is in flight
        let firstRound = try await harness.nextReceipts(2)
        try await harness.publish(event)  // the watchdog re-publishing after it finished
        try await harness.publish(Fixtures.escalation("esc-next"))  // processed after the duplicate
        let secondRound = try await harness.nextReceipts(2)
        #expect(firstRound.allSatisfy { $0.escalationId == "esc-dup" })
        #expect(secondRound.allSatisfy { $0.escalationId == "esc-next" })
        let stats = try await gateway.stats()
        #expect(stats.requests == ["+15125550101": 2])  // one per escalation id
        #expect(harness.bus.published(matching: "safewalk/+/alert").count == 2)
        await harness.stop(); await gateway.shutdown()
    }

    @Test func aNumberTheGatewayRejectsFailsAtOnceWithTwiliosReasonMaskedAndOthersStillGo() async throws {
        let gateway = try await FakeTwilioGateway()
        let national = Contact(id: "c7", name: "Dee", rawPhone: "1234567")  // dialable to us, not to Twilio
        let clock = VirtualClock(autoAdvance: true)
        let harness = try await NotifierHarness.start(
            contacts: [national, Fixtures.ana], clock: clock, settings: Self.settle,
            channels: channels(gateway.configuration, device: false))
        try await harness.publish(Fixtures.escalation())
        let receipts = try await harness.nextReceipts(2)
        let rejected = try #require(receipts.first { $0.recipient == "***4567" })
        #expect(rejected.status == .failed)
        #expect(rejected.attempts == 1)
        #expect(rejected.reason == "HTTP 400: error 21211: The 'To' number ***4567 is not a valid phone number.")
        #expect(receipts.first { $0.recipient == "+*******0101" }?.status == .sent)
        #expect(clock.sleeps.filter { $0 != 30 }.isEmpty)  // permanent: no retry
        await harness.stop(); await gateway.shutdown()
    }

    @Test func webhookBodyIsSignedWithHMACSHA256AndCarriesNoFullNumbers() async throws {
        let gateway = try await FakeTwilioGateway()
        let hook = WebhookChannel(url: "\(gateway.baseURL)/hook", secret: FakeTwilioGateway.webhookSecret)
        // Dispatch at tier 1: told with the contacts, at once (its default is tier 3).
        let harness = try await NotifierHarness.start(
            clock: VirtualClock(autoAdvance: true),
            settings: Self.settle.merging(["SAFEWALK_WEBHOOK_TIER": "1"]) { $1 }, channels: { _ in [hook] })
        try await harness.publish(Fixtures.escalation("esc-hook"))
        let receipt = try #require(try await harness.nextReceipts(1).first)
        #expect(receipt.channel == "webhook")
        #expect(receipt.status == .sent)
        let hooks = try await gateway.stats().hooks
        #expect(hooks.map(\.valid) == [true])  // verified by Python's hmac, not by our code
        #expect(hooks.map(\.escalation) == ["esc-hook"])
        let body = try WebhookChannel.body(
            plan: PlanBuilder.plan(
                for: Fixtures.escalation(), contacts: Fixtures.threeWithOneUndialable, emergency: EmergencyNumber(),
                now: Fixtures.now, timeZone: TimeZone(identifier: "UTC")!), event: Fixtures.escalation())
        #expect(!String(decoding: body, as: UTF8.self).contains("5125550101"))
        await harness.stop(); await gateway.shutdown()
    }
}

@Suite("Notifier service: contact refresh and hostile input", .holdsResources)
struct NotifierServiceTests {
    @Test func aChangedContactListIsUsedForTheNextEscalation() async throws {
        let gateway = try await FakeTwilioGateway()
        let harness = try await NotifierHarness.start(
            contacts: [Fixtures.ana, Fixtures.ben], clock: VirtualClock(autoAdvance: true),
            settings: DeliveryTests.settle, channels: { _ in [SMSHTTPChannel(configuration: gateway.configuration)] })
        try await harness.bus.publish(
            Topic.contacts(Fixtures.walker).name(),
            payload: SafeWalkJSON.encode(ContactList(contacts: [Fixtures.ben])), retain: true)
        await harness.service.book.waitUntil(Fixtures.walker) { $0 == [Fixtures.ben] }
        try await harness.publish(Fixtures.escalation("esc-after-change"))
        let receipts = try await harness.nextReceipts(1)
        #expect(receipts.map(\.recipient) == ["+********0958"])
        #expect(try await gateway.stats().accepted == ["+442079460958": 1])
        await harness.stop(); await gateway.shutdown()
    }

    @Test func hostileEscalationsAreRejectedAndReportedWithoutStoppingTheNext() async throws {
        let harness = try await NotifierHarness.start(
            clock: VirtualClock(autoAdvance: true), settings: DeliveryTests.settle,
            channels: { bus in [DeviceChannel(bus: bus, prefix: Fixtures.prefix)] })
        let rejections = try await harness.bus.subscribe(Topic.rejected(.notifier).name(), qos: .atMostOnce)
        try await harness.bus.publish("safewalk/alex/escalation", string: "{\"v\":1,")
        try await harness.bus.publish(
            "safewalk/alex/escalation",
            payload: SafeWalkJSON.encode(Fixtures.escalation(walker: try WalkerID("mallory"))))
        try await harness.publish(Fixtures.escalation("esc-good"))
        let reports = try await rejections.first(2).map {
            try SafeWalkJSON.decoder().decode(Rejection.self, from: $0.payload)
        }
        #expect(reports.map(\.reason) == ["malformed", "walker_mismatch"])
        let receipt = try #require(try await harness.nextReceipts(1).first)
        #expect(receipt.escalationId == "esc-good")
        #expect(receipt.status == .sent)
        await harness.stop()
    }
}
