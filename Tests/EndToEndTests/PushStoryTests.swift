import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// Web Push end to end (issue 20): the real `web`, `broker-admin`, watchdog, companion-chat and
/// notifier on the secured broker with the repo's ACL, and a fake push service standing in for the
/// browser's (it checks the VAPID signature and decrypts as a browser would). A walker signs up and
/// in over HTTP, subscribes as the app does, closes the tab, and the check-in still reaches the phone.
@Suite("End to end: Web Push", .serialized)
struct PushStoryTests {
    /// What the app does after sign-in: fetch web's VAPID key, subscribe with it at the browser's
    /// push service, and give web the subscription.
    static func subscribe(_ person: Person, at service: FakePushService) async throws -> FakePushService.Subscription {
        struct Key: Decodable { var publicKey: String }
        let answer = try await person.web.send("GET", "/v1/app/push", json: nil)
        let key = try #require(answer.decoded(Key.self), "\(answer.status) \(answer.text)")
        let browser = service.subscribe(applicationServerKey: key.publicKey)
        let stored = try await person.web.send(
            "PUT", "/v1/app/push", body: Array(browser.json.utf8), headers: person.session.headers())
        try #require(stored.status == 204, "\(stored.status) \(stored.text)")
        return browser
    }

    @Test func aCheckInReachesAWalkerWhoseTabIsClosed() async throws {
        let service = try await FakePushService.start()
        do {
            try await ServiceStack.withAccounts(
                environment: [
                    "SAFEWALK_CHECKIN_INTERVAL": "1", "SAFEWALK_NO_REPLY_AFTER": "60",
                    "SAFEWALK_NO_MOVEMENT_AFTER": "600",
                ],
                webSettings: [
                    "SAFEWALK_PUSH_ALLOW_LOOPBACK_HTTP": "true",
                    "SAFEWALK_PUSH_SUBJECT": "mailto:ops@safewalk.example.org",
                ]
            ) { stack in
                let alice = try await Person.signUp("alice", on: stack)
                let browser = try await Self.subscribe(alice, at: service)
                // The phone starts a watch, then the tab is gone: only the push service can reach it.
                let phone = try await alice.phone(on: stack)
                let answers = try await phone.subscribe(try alice.topic(.actionResult), qos: .atLeastOnce)
                try await phone.publish(
                    try alice.topic(.action), payload: SafeWalkJSON.encode(Action(id: "start", kind: .start)))
                #expect(try await answers.decoded(ActionResult.self).first?.ok == true)
                await phone.shutdown()

                try await withTimeout(20, "a check-in push") { await service.waitForMessages(1) }
                let push = try #require(service.messages.first)
                #expect(push.subscription == browser.id)
                #expect(
                    push.fields == [
                        "title": "SafeWalk: check in — are you okay?", "body": "Tap to tell SafeWalk you're okay.",
                        "tag": "checkin", "url": "/",
                    ])
                #expect(push.headers["urgency"] == "high" && push.headers["content-encoding"] == "aes128gcm")
                #expect(push.audience == service.origin && push.subject == "mailto:ops@safewalk.example.org")
                #expect(service.refusals.isEmpty, "\(service.refusals)")
            }
        } catch {
            await service.shutdown()
            throw error
        }
        await service.shutdown()
    }
}
