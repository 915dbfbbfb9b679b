import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// A real phone's bad moments in the app: location blocked, and no network at the worst time.
@Suite("End to end: the app without location or network", .serialized)
struct AppOfflineStoryTests {
    @Test func withLocationBlockedAWatchRunsOnCheckInsAlone() async throws {
        // The no-movement limit passes before the first check-in: a watch that followed location
        // would have escalated noMovement by then.
        try await AppWorld.run(["SAFEWALK_NO_MOVEMENT_AFTER": "2", "SAFEWALK_CHECKIN_INTERVAL": "4"]) { world in
            let page = try await world.signedUpPage("wanda", location: .denied)
            try await withPages([page]) {
                let escalations = try await world.watch("wanda", .escalation)
                let statuses = try await world.watch("wanda", .status)
                try await page.browser.waitUntil(
                    "document.getElementById('geo-state').dataset.geo === 'denied'", "the page to know it is blocked")
                try await page.go(to: "walk")
                try await page.browser.click("#btn-start-watch")
                let watching = try await statuses.json(within: 20, "the watch") { $0["watching"] as? Bool == true }
                #expect(watching["location"] as? String == "off", "\(watching)")
                try await page.go(to: "home")
                try await page.browser.waitUntil(
                    "document.getElementById('location-state').dataset.location === 'off'",
                    "the page to say location off")

                try await page.waitForState("checking")
                try await page.go(to: "chat")
                try await page.browser.click("#qr-almost")
                try await page.go(to: "home")
                try await page.waitForState("safe")
                let raised = await escalations.drainedJSON()
                #expect(raised.isEmpty, "a watch without location escalated: \(raised)")
            }
        }
    }

    @Test func offlineINeedHelpShowsCallAndTextAtOnceAndGoesOutWhenBackOnline() async throws {
        try await AppWorld.run { world in
            let page = try await world.signedUpPage("wanda")
            try await withPages([page]) {
                try await page.addContact("Mum", phone: "+15125550101")
                try await page.browser.waitUntil(
                    "document.querySelector('[data-testid=contact][data-dialable=true]')", "Mum dialable")
                try await page.go(to: "home")
                let escalations = try await world.watch("wanda", .escalation)

                try await page.browser.setOffline(true)
                try await page.browser.waitForElement("#banner-offline")
                let pressed = ContinuousClock.now
                try await page.browser.click("#btn-need-help")
                // Shown with the network off, so from the page alone; the time is printed, not
                // asserted (real time belongs in benchmarks).
                try await page.browser.waitForElement("a[data-testid=help-call]", seconds: 20)
                try await page.browser.waitForElement("a[data-testid=help-text]", seconds: 20)
                print("app offline help: links shown \(ContinuousClock.now - pressed) after the tap")
                let calls = try await page.links("a[data-testid=help-call]")
                let texts = try await page.links("a[data-testid=help-text]")
                #expect(calls.contains("tel:+15125550101"), "\(calls)")
                #expect(texts.contains { $0.hasPrefix("sms:+15125550101") }, "\(texts)")
                try await page.browser.waitUntil(
                    "Number(document.getElementById('outbox-count').dataset.count) >= 1", "the cry for help queued")

                // Nothing left the phone; back online, the queued action goes out by itself.
                let whileOffline = await escalations.drainedJSON()
                #expect(whileOffline.isEmpty, "\(whileOffline)")
                let afterwards = try await world.watch("wanda", .escalation)
                try await page.browser.setOffline(false)
                let help = try await afterwards.json(within: 30, "the queued needHelp")
                #expect(help["reason"] as? String == "needHelp" && help["level"] as? String == "red", "\(help)")
                try await page.browser.waitUntil(
                    "Number(document.getElementById('outbox-count').dataset.count) === 0", "the outbox to empty",
                    seconds: 30)
                try await page.waitForState("alert")
            }
        }
    }
}
