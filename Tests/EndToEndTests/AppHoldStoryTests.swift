import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// Hold-to-release in the app with real pointer events (W3C Actions: the browser dispatches
/// `pointerdown`, `pointerleave`, `pointerup` itself). The page beats `holding` every 2 s and the
/// watchdog's limit is 3 s (two missed raise the panic), so a hold that stays quiet for longer
/// than that proves the beats arrive.
@Suite("End to end: hold-to-release in the app", .serialized)
struct AppHoldStoryTests {
    @Test func holdingThenLiftingOnTheButtonRaisesThePanic() async throws {
        try await AppWorld.run { world in
            let page = try await world.signedUpPage("wanda")
            try await withPages([page]) {
                let escalations = try await world.watch("wanda", .escalation)
                let incidents = try await world.watch("wanda", .incident)
                let results = try await world.watch("wanda", .actionResult)
                try await page.browser.click("#panic-red")
                try await page.browser.pointerDown(on: "#btn-hold")
                try await page.browser.waitUntil(
                    "document.getElementById('btn-hold').dataset.hold === 'holding'", "the button to hold")
                // The hold's answer and three heartbeats' (6 s: two missed would have raised it).
                for count in 1...4 {
                    _ = try await results.json(within: 20, "answer \(count) while holding") {
                        $0["ok"] as? Bool == true
                    }
                }
                let early = await escalations.drainedJSON()
                #expect(early.isEmpty, "escalated while still held: \(early)")

                let after = try await world.watch("wanda", .escalation)
                try await page.browser.pointerUp()
                let panic = try await after.json(within: 20, "the panic")
                #expect(panic["reason"] as? String == "panic" && panic["level"] as? String == "red", "\(panic)")
                let incident = try await incidents.json(within: 20, "the open incident") {
                    $0["state"] as? String == "open"
                }
                #expect(incident["incident"] as? String == panic["incident"] as? String)
                try await page.browser.waitUntil(
                    "document.getElementById('btn-hold').dataset.hold === 'released'", "the button to say sent")
                try await page.waitForState("alert")
            }
        }
    }

    @Test func holdingThenSlidingOffRaisesNothing() async throws {
        try await AppWorld.run { world in
            let page = try await world.signedUpPage("wanda")
            try await withPages([page]) {
                let escalations = try await world.watch("wanda", .escalation)
                let results = try await world.watch("wanda", .actionResult)
                try await page.browser.pointerDown(on: "#btn-hold")
                try await page.browser.waitUntil(
                    "document.getElementById('btn-hold').dataset.hold === 'holding'", "the button to hold")
                _ = try await results.json(within: 20, "the hold's answer") { $0["ok"] as? Bool == true }
                try await page.browser.slidePointerOff("#btn-hold")
                try await page.browser.waitUntil(
                    "document.getElementById('btn-hold').dataset.hold === 'cancelled'", "the button to say cancelled")
                try await page.browser.pointerUp()

                // The switch is disarmed, not merely quiet: a heartbeat now is answered not_holding.
                let probe = """
                    const done = arguments[arguments.length - 1];
                    fetch('/v1/sessions/current').then(r => r.json()).then(s => fetch('/v1/app/publish', {method: 'POST',
                      headers: {'Content-Type': 'application/json', 'X-CSRF-Token': s.csrfToken},
                      body: JSON.stringify({kind: 'action', payload: {v: 1, id: 'probe-1', action: 'holding'}})}))
                      .then(r => done(r.status), e => done(String(e)));
                    """
                _ = try await results.json(within: 20, "cancelHold's answer") { $0["ok"] as? Bool == true }
                #expect(try await page.browser.evaluateAsync(probe) as? Int == 202)
                let answer = try await results.json(within: 20, "the probe's answer") {
                    $0["id"] as? String == "probe-1"
                }
                #expect((answer["error"] as? [String: Any])?["code"] as? String == "not_holding", "\(answer)")

                // And past two heartbeat limits from the slide-off, nothing was raised.
                try await Task.sleep(for: .seconds(7))
                let raised = await escalations.drainedJSON()
                #expect(raised.isEmpty, "\(raised)")
                #expect(try await page.hero("state") != "alert")
            }
        }
    }
}
