import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// The circle in two browsers: wanda follows carl and marks him her SOS contact, all by tapping;
/// when she asks for help, carl's page (another phone, another session) shows the alert and
/// follows her live, without a reload, until she says she is safe.
@Suite("End to end: the circle in two browsers", .serialized)
struct AppCircleStoryTests {
    @Test func anSOSContactsPageFollowsTheWalkerLiveUntilSheIsSafe() async throws {
        try await AppWorld.run { world in
            let carl = try await world.signedUpPage("carl")
            let wanda: AppPage
            do { wanda = try await world.signedUpPage("wanda", location: .at(30.2849, -97.7341)) } catch {
                await carl.close()
                throw error
            }
            try await withPages([carl, wanda]) {
                try await wanda.go(to: "circle")
                try await wanda.browser.type("carl", into: "#circle-follow-user")
                try await wanda.browser.click("#circle-follow-submit")
                try await carl.go(to: "circle")
                try await carl.browser.waitForElement("#circle-requests-in [data-user=wanda] [data-testid=accept]")
                try await carl.browser.click("#circle-requests-in [data-user=wanda] [data-testid=accept]")
                try await wanda.browser.waitForElement("#circle-following [data-user=carl] [data-testid=sos-toggle]")
                try await wanda.browser.click("#circle-following [data-user=carl] [data-testid=sos-toggle]")
                try await wanda.browser.waitUntil(
                    "(document.querySelector('#circle-following [data-user=carl]') || {dataset: {}}).dataset.sos === 'true'",
                    "carl marked SOS")

                // Wanda asks for help: carl's page shows it, with where she is.
                let positions = try await world.watch("wanda", .position)
                _ = try await positions.json(within: 20, "wanda's first fix") { ($0["lat"] as? Double) == 30.2849 }
                try await wanda.go(to: "home")
                try await wanda.browser.click("#btn-need-help")
                // The home screen's banner is armed (he is on the circle screen, so it is not drawn).
                try await carl.browser.waitUntil(
                    "!document.getElementById('circle-alert-banner').hidden", "carl's alert banner", seconds: 20)
                try await carl.browser.waitForElement("#circle-shared [data-testid=shared-view][data-user=wanda]")
                #expect(
                    try await carl.browser.attribute("[data-testid=shared-view][data-user=wanda]", "data-level")
                        == "red")
                try await carl.browser.waitForText(
                    "[data-user=wanda] [data-testid=shared-position]", containing: "30.28490", seconds: 20)

                // She moves; his page follows without a reload.
                for latitude in [30.2853, 30.2857] {
                    try await Task.sleep(for: .seconds(1.1))  // a fix's time is in whole seconds
                    try await wanda.browser.setLocation(latitude: latitude, longitude: -97.7341)
                    try await carl.browser.waitForText(
                        "[data-user=wanda] [data-testid=shared-position]", containing: String(format: "%.5f", latitude),
                        seconds: 20)
                }
                try await carl.browser.saveScreenshot("app-circle-alert-light")

                // "I'm safe": the view goes from his page.
                try await wanda.browser.click("#btn-im-safe")
                try await wanda.waitForState("safe")
                try await carl.browser.waitForNoElement("[data-testid=shared-view][data-user=wanda]", seconds: 20)
                try await carl.browser.waitForElement("#circle-inbox [data-testid=inbox-event][data-type=allClear]")
            }
        }
    }
}
