import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// The monitoring desk's page at `/ops` in a real headless Chromium on the real stack (issue 21):
/// an operator signs in with the form; an incident appears on the board within a second of its
/// escalation; its marker follows the walker; Acknowledge and Close (false alarm) work from the
/// panel and reach the walker's phone; a duress incident cannot be closed as a false alarm
/// without a note. With `SAFEWALK_SCREENSHOTS=1` the board and the panel, light and dark, go to
/// docs/images/desk-*.png.
@Suite("End to end: the monitoring desk in a browser", .serialized)
struct DeskBrowserTests {
    static let mum = "+15125550101"

    /// Records, in the page, when each incident's row first appears in the table (`Date.now()`).
    static let rowWatch = """
        window.deskSeen = {};
        const rows = document.getElementById('desk-incidents-rows');
        const note = () => {
          for (const row of rows.querySelectorAll('tr[data-incident]'))
            if (!(row.dataset.incident in window.deskSeen)) window.deskSeen[row.dataset.incident] = Date.now();
        };
        new MutationObserver(note).observe(rows, { childList: true, subtree: true });
        note();
        """

    @Test func anIncidentAppearsLiveItsMarkerMovesAndTheDeskAcknowledgesAndClosesIt() async throws {
        try await DeskWorld.run(map: true) { world in
            try await world.addOperator("olga")
            let wanda = try await DeskWalker.signUp("wanda", in: world)
            try await wanda.addContacts([("Mum", Self.mum, nil)])
            try await wanda.fix(lat: 30.284900, lon: -97.734100)
            #expect(try await wanda.perform(.start).ok)
            let alerts = try await wanda.phone.subscribe(try wanda.topic(.alert), qos: .atLeastOnce)
            let notices = try await wanda.phone.subscribe(try wanda.topic(.deskNotice), qos: .atLeastOnce)

            let browser = try await HeadlessBrowser()
            try await Self.using(browser) {
                try await Self.signIn(browser, world: world, as: "olga")
                _ = try await browser.evaluate(Self.rowWatch)

                // wanda asks for help: her row is in the table within a second of the escalation.
                let escalations = try await world.observe(try wanda.topic(.escalation))
                async let escalated = escalations.first(1, within: 20)
                #expect(try await wanda.perform(.needHelp).ok)
                let escalation = try #require(try await escalated.first)
                let escalatedAt = Date().timeIntervalSince1970
                let incident = try #require(escalation.object?["incident"] as? String)
                let row = "#desk-incidents-rows tr[data-incident=\"\(incident)\"]"
                try await browser.waitForElement(row, seconds: 10)
                let seen = try #require(
                    try await browser.evaluate("return window.deskSeen[arguments[0]];", [incident]) as? Double)
                let delay = seen / 1_000 - escalatedAt
                print("DESK-BOARD-ROW \(String(format: "%.3f", delay)) s after the escalation")
                #expect(delay < 1, "the row appeared \(delay) s after the escalation reached the test")
                #expect(try await browser.attribute(row, "data-level") == "red")
                #expect(try await browser.attribute(row, "data-duress") == "false")

                // Its marker is where she is, and moves with her.
                let marker = ".desk-marker[data-incident=\"\(incident)\"]"
                try await Self.waitForMarker(marker, at: "30.2849", browser)
                try await wanda.fix(lat: 30.285700, lon: -97.734100)
                try await Self.waitForMarker(marker, at: "30.2857", browser)
                #expect(try await browser.attribute(marker, "data-lon") == "-97.7341")
                try await browser.waitUntil(
                    "document.querySelectorAll('#desk-map img.leaflet-tile-loaded').length > 0", "the map's tiles")
                try await Self.screenshots("desk-board", browser)

                // The panel: its page, its timeline; Acknowledge.
                try await browser.click("\(row) button[data-testid=desk-open-incident]")
                try await browser.waitUntil(
                    "document.getElementById('desk-incident').dataset.state === 'open'"
                        + " && document.querySelectorAll('#desk-incident-timeline li').length > 0",
                    "the incident's panel with its timeline")
                #expect(try await browser.attribute("#desk-incident", "data-incident") == incident)
                #expect(try await browser.text("#desk-incident-badges") == "REDOPEN")
                try await Self.screenshots("desk-incident", browser)
                try await browser.click("#desk-ack")
                try await browser.waitForText("#desk-incident-result", containing: "Acknowledged")
                try await browser.waitUntil(
                    "(document.querySelector(\(Self.js(row))) || {dataset: {}}).dataset.acknowledged === 'true'",
                    "the row to say the desk is on it")
                _ = try await alerts.decoded(DeviceAlert.self) { $0.title == "The campus desk is on it" }

                // Close as a false alarm: the row and the marker go, the phone hears it.
                _ = try await browser.evaluate(
                    "document.getElementById('desk-close-reason').value = 'falseAlarm';")
                try await browser.click("#desk-close")
                try await browser.waitForText("#desk-incident-result", containing: "Closed as false alarm")
                try await browser.waitForNoElement(row)
                try await browser.waitForNoElement(marker)
                _ = try await alerts.decoded(DeviceAlert.self) { $0.title == "The campus desk closed your alert" }
                let notice = try #require(try await notices.decoded(DeskNotice.self).first)
                #expect(notice.operator == "olga" && notice.incident == incident)
                #expect(notice.text.hasPrefix("olga of the campus desk viewed your alert at"))
                #expect(
                    try await world.waitForTexts(to: Self.mum, count: 3).last?.contains(
                        "The campus desk closed wanda's alert (false alarm)") == true)
            }
            alerts.cancel()
            notices.cancel()
            await wanda.leave()
        }
    }

    @Test func aDuressIncidentIsNotClosedAsAFalseAlarmWithoutANote() async throws {
        try await DeskWorld.run(map: true) { world in
            try await world.addOperator("olga")
            let judy = try await DeskWalker.signUp("judy", in: world)
            try await judy.addContacts([("Mum", Self.mum, nil)])
            #expect(try await judy.perform(.setPins(PINChange(cancel: PIN("2468")!, duress: PIN("1357")!))).ok)
            try await judy.fix(lat: 30.284900, lon: -97.734100)
            #expect(try await judy.perform(.needHelp).ok)
            #expect(try await judy.perform(.imSafe, pin: PIN("1357")).ok)
            let notices = try await judy.phone.subscribe(try judy.topic(.deskNotice), qos: .atLeastOnce)

            let browser = try await HeadlessBrowser()
            try await Self.using(browser) {
                try await Self.signIn(browser, world: world, as: "olga")
                let row = "#desk-incidents-rows tr[data-walker=judy][data-duress=true]"
                try await browser.waitForElement(row, seconds: 20)
                try await browser.click("\(row) button[data-testid=desk-open-incident]")
                try await browser.waitUntil(
                    "document.getElementById('desk-incident').dataset.duress === 'true'"
                        + " && document.getElementById('desk-incident').dataset.state === 'open'",
                    "the duress incident's panel")
                _ = try await browser.evaluate(
                    "document.getElementById('desk-close-reason').value = 'falseAlarm';")
                try await browser.click("#desk-close")
                try await browser.waitForText(
                    "#desk-incident-error", containing: "A duress incident needs a note to be closed as a false alarm")
                #expect(try await browser.attribute("#desk-incident", "data-state") == "open")
                if HeadlessBrowser.refreshesDocumentation { try await browser.saveScreenshot("desk-duress-light") }
                let early = await notices.drained()
                #expect(early.isEmpty, "the phone was told during duress: \(early.map(\.string))")

                let again = try await judy.phone.subscribe(try judy.topic(.deskNotice), qos: .atLeastOnce)
                try await browser.type("Spoke to judy by phone: she is safe.", into: "#desk-close-note")
                try await browser.click("#desk-close")
                try await browser.waitForText("#desk-incident-result", containing: "Closed as false alarm")
                try await browser.waitForNoElement(row)
                let held = try #require(try await again.decoded(DeskNotice.self).first)
                #expect(held.operator == "olga")
                again.cancel()
            }
            await judy.leave()
        }
    }

    // MARK: Helpers

    /// Opens `/ops` and signs in with the form, on a desktop-sized screen.
    static func signIn(_ browser: HeadlessBrowser, world: DeskWorld, as name: String) async throws {
        try await browser.emulateScreen(width: 1280, height: 900, mobile: false)
        try await browser.open(world.stack.publicURL + "/ops")
        try await browser.waitForElement("#desk-username")
        try await browser.type(name, into: "#desk-username")
        try await browser.type(DeskWorld.operatorPassword, into: "#desk-password")
        try await browser.click("#desk-signin-submit")
        do {
            try await browser.waitUntil(
                "document.body.dataset.signedIn === 'true' && document.body.dataset.deskStream === 'connected'",
                "the board, connected", seconds: 20)
        } catch {
            let said = (try? await browser.text("#desk-signin-error")) ?? ""
            throw HeadlessBrowser.Failure(description: "\(error): '\(said)'")
        }
        #expect(try await browser.text("#desk-whoami") == name)
    }

    static func waitForMarker(_ marker: String, at latitude: String, _ browser: HeadlessBrowser) async throws {
        try await browser.waitUntil(
            "(document.querySelector(\(js(marker))) || {dataset: {}}).dataset.lat === \(js(latitude))",
            "the marker at \(latitude)", seconds: 10)
    }

    /// Light and dark, only when the run refreshes the documentation's pictures.
    static func screenshots(_ name: String, _ browser: HeadlessBrowser) async throws {
        guard HeadlessBrowser.refreshesDocumentation else { return }
        for scheme in ["light", "dark"] {
            try await browser.emulate(colorScheme: scheme)
            try await browser.saveScreenshot("\(name)-\(scheme)")
        }
        try await browser.emulate(colorScheme: "light")
    }

    /// `text` as a JavaScript string literal.
    static func js(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }

    /// Runs `story` and closes the browser whatever happened (a failure's screenshot goes to the
    /// temporary directory, never into docs/).
    static func using(_ browser: HeadlessBrowser, _ story: () async throws -> Void) async throws {
        do {
            try await story()
        } catch {
            if let shot = try? await browser.screenshot() {
                try? shot.write(
                    to: FileManager.default.temporaryDirectory.appendingPathComponent(
                        "desk-failure-\(UUID().uuidString.prefix(6)).png"))
            }
            await browser.close()
            throw error
        }
        await browser.close()
    }
}
