import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// Issue 20 in a real browser: the walker's app, served by web, on the whole stack. Everything
/// the page does is checked by its effect on the services' topics (read as the operator) and by
/// what the page then shows; the thresholds are shortened by configuration, never slept through.
@Suite("End to end: the walker's app in a browser", .serialized)
struct AppStoryTests {
    @Test func aNewWalkerSignsUpSignsOutAndSignsInAgain() async throws {
        try await AppWorld.run { world in
            let page = try await world.signedUpPage("wanda")
            try await withPages([page]) {
                #expect(try await page.browser.isShown("#btn-im-safe"))
                #expect(try await page.browser.isShown("#btn-need-help"))
                #expect(try await page.browser.isShown("#btn-hold"))

                // A reload keeps the session: the app "stays signed in until the user signs out".
                try await page.browser.open(world.appURL)
                try await page.browser.waitUntil("document.body.dataset.screen === 'home'", "home after a reload")
                try await page.connected()

                try await page.go(to: "settings")
                try await page.browser.click("#btn-signout")
                try await page.browser.waitUntil("document.body.dataset.signedIn === 'false'", "signed out")
                try await page.browser.waitForElement("#signin-form")
                try await page.signIn("wanda")
            }
        }
    }

    @Test func theBrowsersLocationWalksARouteToThePositionTopic() async throws {
        try await AppWorld.run { world in
            let positions = try await world.watch("wanda", .position)
            let page = try await world.signedUpPage("wanda", location: .at(30.2849, -97.7341))
            try await withPages([page]) {
                let first = try await positions.json(within: 20, "the first fix") { ($0["lat"] as? Double) == 30.2849 }
                #expect(first["acc"] as? Double == 5)
                try await page.browser.waitUntil(
                    "document.getElementById('geo-state').dataset.geo === 'on'", "location on")

                // A walk to the library, started on the walk screen with coordinates typed in.
                let statuses = try await world.watch("wanda", .status)
                try await page.go(to: "walk")
                try await page.browser.type("Library", into: "#walk-destination")
                try await page.browser.type("30.2870", into: "#walk-lat")
                try await page.browser.type("-97.7341", into: "#walk-lon")
                try await page.browser.type("20", into: "#walk-minutes")
                try await page.browser.click("#btn-start-walk")
                _ = try await statuses.json(within: 20, "the walk") { status in
                    (status["watching"] as? Bool) == true
                        && (status["walk"] as? [String: Any])?["destination"] as? String
                            == "Library"
                }

                // About 35 m a step, north: each step is a fix the page sends, each proves movement.
                for latitude in [30.2852, 30.2855, 30.2858] {
                    // A step a second at least: a fix's time is in whole seconds, and one no newer
                    // than the last never moves the walker (docs/CONTRACT.md, {w}/fix).
                    try await Task.sleep(for: .seconds(1.1))
                    try await page.browser.setLocation(latitude: latitude, longitude: -97.7341)
                    let position = try await positions.json(within: 20, "the fix at \(latitude)") {
                        ($0["lat"] as? Double) == latitude
                    }
                    #expect(position["moved"] as? Bool == true, "\(position)")
                }
                try await page.go(to: "home")
                try await page.browser.waitForText("#walk-eta", containing: "Library")
                #expect(try await page.hero("watching") == "true")
            }
        }
    }

    @Test func aCheckInIsAnsweredWithAQuickReply() async throws {
        try await AppWorld.run(["SAFEWALK_CHECKIN_INTERVAL": "2"]) { world in
            let page = try await world.signedUpPage("wanda")
            try await withPages([page]) {
                let replies = try await world.watch("wanda", .reply)
                try await page.go(to: "walk")
                try await page.browser.click("#btn-start-watch")
                try await page.go(to: "home")
                try await page.waitForState("checking")
                try await page.go(to: "chat")
                try await page.browser.waitForElement("[data-testid=chat-message][data-from=companion]")
                try await page.browser.click("#qr-okay")
                let reply = try await replies.json(within: 20, "the quick reply")
                #expect(reply["text"] as? String == "I'm okay 👍" && reply["quickReply"] as? Bool == true, "\(reply)")
                try await page.go(to: "home")
                try await page.waitForState("safe")
            }
        }
    }

    @Test func aSilentWalkerSeesTheAlertWithItsCallLink() async throws {
        try await AppWorld.run(["SAFEWALK_CHECKIN_INTERVAL": "1", "SAFEWALK_NO_REPLY_AFTER": "3"]) { world in
            let page = try await world.signedUpPage("wanda")
            try await withPages([page]) {
                let escalations = try await world.watch("wanda", .escalation)
                try await page.go(to: "walk")
                try await page.browser.click("#btn-start-watch")
                try await page.go(to: "home")
                let escalation = try await escalations.json(within: 20, "noReply")
                #expect(escalation["reason"] as? String == "noReply" && escalation["level"] as? String == "amber")
                try await page.waitForState("alert")
                try await page.browser.waitForElement("#alert-panel")
                try await page.browser.waitForElement("a[data-testid=alert-action]")
                let links = try await page.links("#alert-actions a[data-testid=alert-action]")
                #expect(links.contains("tel:+15124714441"), "\(links)")
                #expect(try await page.hero("level") == "amber")
            }
        }
    }
}
