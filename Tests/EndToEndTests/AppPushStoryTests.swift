import Foundation
import TestSupport
import Testing

/// A check-in prompt reaches a phone as a push message and its service worker shows it. web sends
/// it to a local RFC 8030 push service (FakePushService: it checks the VAPID JWT and decrypts the
/// RFC 8291 body with the subscription's private key, as the browser would); the decrypted message
/// is then handed to the app's own service worker as the browser's push channel hands it one
/// (DevTools' `ServiceWorker.deliverPushMessage`). What is not exercised: Chromium's own
/// `PushManager.subscribe`, which would register with Google's FCM, unreachable from a test; the
/// subscription web gets is the fake service's, sent with the page's own session and CSRF token.
@Suite("End to end: push in the app", .serialized)
struct AppPushStoryTests {
    @Test func aCheckInPromptArrivesAsAPushAndTheServiceWorkerShowsIt() async throws {
        let push = try await FakePushService.start()
        do {
            try await AppWorld.run(["SAFEWALK_PUSH_ALLOW_LOOPBACK_HTTP": "true", "SAFEWALK_CHECKIN_INTERVAL": "2"]) {
                world in
                let page = try await world.signedUpPage("wanda")
                try await withPages([page]) { try await Self.story(page, world: world, push: push) }
            }
        } catch {
            await push.shutdown()
            throw error
        }
        await push.shutdown()
    }

    static func story(_ page: AppPage, world: AppWorld, push: FakePushService) async throws {
        let browser = page.browser
        let key =
            try await browser.evaluateAsync(
                """
                const done = arguments[arguments.length - 1];
                fetch('/v1/app/push').then(r => r.json()).then(b => done(b.publicKey), e => done(String(e)));
                """) as? String
        let subscription = push.subscribe(applicationServerKey: try #require(key))
        let stored =
            try await browser.evaluateAsync(
                """
                const done = arguments[arguments.length - 1];
                fetch('/v1/sessions/current').then(r => r.json()).then(s => fetch('/v1/app/push', {method: 'PUT',
                  headers: {'Content-Type': 'application/json', 'X-CSRF-Token': s.csrfToken}, body: arguments[0]}))
                  .then(r => done(r.status), e => done(String(e)));
                """, [subscription.json]) as? Int
        #expect(stored == 204)

        try await page.go(to: "walk")
        try await browser.click("#btn-start-watch")
        try await withTimeout(30, "a push for the check-in") { await push.waitForMessages(1) }
        let message = try #require(push.messages.first)
        let text = String(decoding: message.plaintext, as: UTF8.self)
        let fields = try #require(try JSONSerialization.jsonObject(with: message.plaintext) as? [String: Any])
        let title = try #require(fields["title"] as? String, "\(text)")

        _ = try await browser.evaluateAsync("navigator.serviceWorker.ready.then(() => arguments[0](true));")
        // Delivered again until it shows: DevTools sometimes drops one delivered the moment the
        // worker is ready (HeadlessBrowserCapabilityTests); the tag keeps it to one notification.
        try await eventually("the notification", within: 10) {
            try await browser.deliverPush(text, scope: world.appURL)
            try await Task.sleep(for: .milliseconds(300))
            return try await !browser.notifications().isEmpty
        }
        let shown = try await browser.notifications()
        #expect(shown.first?.title == title, "\(shown) from \(text)")
        #expect(shown.first?.body == fields["body"] as? String)
        print("app push: \(text)")
    }
}
