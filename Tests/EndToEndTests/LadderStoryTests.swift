import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// Issue 18 end to end: the real executables, the fake Twilio gateway, a real Chromium. A walker
/// asks for help; each contact's text carries a link of their own; the page follows the walker;
/// nobody answers and the ladder climbs to the backups and then to dispatch, at the configured
/// times; or someone texts back "OK" and the climb stops; `imSafe` sends one all-clear to each
/// person told, and the link shows no position any more.
@Suite("End to end: the ladder and the live page", .serialized)
struct LadderStoryTests {
    static let mum = "+15125550101"
    static let dad = "+15125550102"
    static let sam = "+15125550103"
    static let contacts: [(name: String, phone: String, tier: Int?)] = [
        ("Mum", mum, nil), ("Dad", dad, nil), ("Sam", sam, 2),
    ]

    @Test func nobodyAnswersSoTheLadderClimbsAndThePageFollowsTheWalker() async throws {
        try await LadderWorld.run { world in
            let nora = try await LadderWalker.signUp("nora", on: world.stack)
            try await nora.addContacts(Self.contacts)
            try await nora.fix(lat: 30.284900, lon: -97.734100, on: world)
            let alerts = try await nora.phone.subscribe(nora.topic(.alert), qos: .atLeastOnce)
            let asked = Date().timeIntervalSince1970
            try await nora.send(.needHelp)

            // Tier 1 at once, each with a link of their own; the backup not yet.
            let mumText = try IncidentText(try #require(try await world.waitForTexts(to: Self.mum, count: 1).first))
            let dadText = try IncidentText(try #require(try await world.waitForTexts(to: Self.dad, count: 1).first))
            #expect(mumText.link != dadText.link && mumText.code == dadText.code)
            #expect(mumText.link.hasPrefix(world.stack.publicURL + "/i/"))
            #expect(try await world.texts(to: Self.sam).isEmpty)

            // The page follows the walker, live, in a real browser.
            let browser = try await HeadlessBrowser()
            do {
                try await browser.open(mumText.link)
                try await browser.waitUntil(
                    "(document.querySelector('#position')||{}).textContent.includes('30.2849')", "the first position")
                try await nora.fix(lat: 30.289400, lon: -97.734100, on: world)
                try await browser.waitUntil(
                    "(document.querySelector('#position')||{}).textContent.includes('30.2894')",
                    "the page to show the walker 500 m further north, without a reload")
                let shot = try await browser.screenshot()
                #expect(shot.count > 10_000, "a blank screenshot")
                try shot.write(to: FileManager.default.temporaryDirectory.appendingPathComponent("contact-page.png"))

                // Nobody says "I'm on it": the backup is told after the tier 2 wait, dispatch after
                // tier 3's. Counted from the cry for help, which the ladder cannot precede: from
                // tier 1's arrival at the gateway, a loaded machine once measured 2.88 s, tier 1's
                // text having been late, not tier 2's early.
                _ = try await world.waitForTexts(to: Self.sam, count: 1)
                let stats = try await world.gateway.stats()
                let told = try #require(stats.times?[Self.mum]?.first)
                let backup = try #require(stats.times?[Self.sam]?.first)
                #expect(backup - asked >= 2.9, "tier 2 \(backup - asked) s after the cry, configured 3 s")
                #expect(backup > told)
                try await eventually("the dispatch webhook", within: 20) {
                    ((try? await world.gateway.stats().hooks.count) ?? 0) >= 1
                }
                #expect(try await world.gateway.stats().hooks.allSatisfy(\.valid))
                #expect(try await world.texts(to: Self.mum).count == 1, "tier 1 was not reminded within the story")

                // Twilio reports each text delivered; the report reaches the services' ladder.
                let ladder = try await world.ladder(of: "nora")
                _ = try await ladder.decoded(LadderState.self, within: 20) { state in
                    state.recipients.contains { $0.name == "Mum" && $0.receipt == "delivered" }
                }
                ladder.cancel()

                // Mum presses "I'm on it" on her page: a POST from the button, in the browser. The page
                // says so, the walker hears who is on it, everyone else told hears who is handling it.
                try await browser.click("#ack-button")
                try await browser.waitUntil(
                    "(document.querySelector('#on-it')||{}).textContent.includes('on it')",
                    "the page to say Mum is on it")
                _ = try await alerts.decoded(DeviceAlert.self) { $0.body.contains("Mum is on it") }
                for number in [Self.dad, Self.sam] {
                    let texts = try await world.waitForTexts(to: number, count: 2)
                    #expect(texts.last?.contains("Mum is handling it") == true, "\(texts)")
                }
                try await Task.sleep(for: .seconds(1))
                let hooksBeforeTheEnd = try await world.gateway.stats().hooks.count

                // The walker is safe: one all-clear to each person told, on the channel that told them.
                try await nora.send(.imSafe)
                for (number, told) in [(Self.mum, 1), (Self.dad, 2), (Self.sam, 2)] {
                    let texts = try await world.waitForTexts(to: number, count: told + 1)
                    #expect(texts.last?.contains("safe") == true, "\(texts)")
                }
                try await eventually("the all-clear to dispatch", within: 20) {
                    ((try? await world.gateway.stats().hooks.count) ?? 0) > hooksBeforeTheEnd
                }
                try await browser.waitUntil(
                    "(document.querySelector('#state')||{}).textContent.includes('safe')", "the page to say she is safe"
                )
                #expect(try await browser.text("#position")?.contains("30.28") != true)
                let closedShot = try await browser.screenshot()
                try closedShot.write(
                    to: FileManager.default.temporaryDirectory.appendingPathComponent("contact-page-closed.png"))
                let closedPage = try await world.stack.web().send("GET", mumText.path, json: nil)
                #expect(closedPage.status == 200)
                #expect(!closedPage.text.contains("30.28"), "a closed incident's page still shows a position")
                try await Task.sleep(for: .seconds(1))  // anything repeated would have arrived by now
                for (number, told) in [(Self.mum, 1), (Self.dad, 2), (Self.sam, 2)] {
                    let texts = try await world.texts(to: number)
                    #expect(texts.count == told + 1, "\(number) was told twice: \(texts)")
                }
                #expect(try await world.gateway.stats().hooks.count == hooksBeforeTheEnd + 1)
            } catch {
                await browser.close()
                throw error
            }
            await browser.close()
            alerts.cancel()
            await nora.leave()
        }
    }

    @Test func aTextedOKStopsTheClimbAndTellsTheWalkerWhoIsOnIt() async throws {
        try await LadderWorld.run { world in
            let otto = try await LadderWalker.signUp("otto", on: world.stack)
            try await otto.addContacts(Self.contacts)
            try await otto.fix(lat: 30.284900, lon: -97.734100, on: world)
            let alerts = try await otto.phone.subscribe(otto.topic(.alert), qos: .atLeastOnce)
            try await otto.send(.needHelp)
            let mumText = try IncidentText(try #require(try await world.waitForTexts(to: Self.mum, count: 1).first))
            let dadText = try IncidentText(try #require(try await world.waitForTexts(to: Self.dad, count: 1).first))

            let answer = try await world.gateway.textIn(
                from: Self.mum, body: "OK \(mumText.code)", to: world.stack.publicURL + "/v1/gateway/sms/inbound")
            #expect(answer.status == 200 && answer.body.contains("<Response>"), "\(answer)")
            #expect(answer.body.contains("otto"), "the reply should say whom it is for: \(answer.body)")

            // The walker hears who is on it; the others that someone is handling it.
            _ = try await alerts.decoded(DeviceAlert.self) { $0.body.contains("Mum is on it") }
            let dadTexts = try await world.waitForTexts(to: Self.dad, count: 2)
            #expect(dadTexts.last?.contains("Mum is handling it") == true, "\(dadTexts)")

            // A stranger's "OK" is answered, and acknowledges nothing.
            let stranger = try await world.gateway.textIn(
                from: "+15125550199", body: "OK", to: world.stack.publicURL + "/v1/gateway/sms/inbound")
            #expect(stranger.status == 200 && stranger.body.contains("<Message>"), "\(stranger)")

            // The climb stopped: past the tier 2 and 3 waits, neither the backup nor dispatch was told.
            try await Task.sleep(for: .seconds(7))
            #expect(try await world.texts(to: Self.sam).isEmpty, "the backup was told after an acknowledgement")
            #expect(try await world.gateway.stats().hooks.isEmpty, "dispatch was told after an acknowledgement")

            // Dad's page says Mum is on it.
            let page = try await world.stack.web().send("GET", dadText.path, json: nil)
            #expect(page.status == 200 && page.text.contains("Mum"), "\(page.status)")

            try await otto.send(.imSafe)
            #expect(try await world.waitForTexts(to: Self.mum, count: 2).last?.contains("safe") == true)
            #expect(try await world.waitForTexts(to: Self.dad, count: 3).last?.contains("safe") == true)
            try await Task.sleep(for: .seconds(1))
            #expect(try await world.texts(to: Self.mum).count == 2)
            #expect(try await world.texts(to: Self.dad).count == 3)
            #expect(try await world.texts(to: Self.sam).isEmpty, "someone never told got an all-clear")
            alerts.cancel()
            await otto.leave()
        }
    }

    /// The notifier and web die by SIGKILL in the middle of a ladder: no step is lost, none is
    /// repeated, and the link works again once web is back.
    @Test func killingTheNotifierAndWebMidLadderLosesNoStepAndRepeatsNone() async throws {
        try await LadderWorld.run(["SAFEWALK_LADDER_TIER2_RED": "6"]) { world in
            let pia = try await LadderWalker.signUp("pia", on: world.stack)
            try await pia.addContacts(Self.contacts)
            try await pia.fix(lat: 30.284900, lon: -97.734100, on: world)
            try await pia.send(.needHelp)
            let mumText = try IncidentText(try #require(try await world.waitForTexts(to: Self.mum, count: 1).first))
            _ = try await world.waitForTexts(to: Self.dad, count: 1)
            // Killed once both texts are recorded as sent (the ladder's `sent` follows the ledger's):
            // a kill between the gateway's answer and that record is the one documented window
            // where a text can go twice (docs/services/notifier.md), which this story is not about.
            let ladder = try await world.ladder(of: "pia")
            _ = try await ladder.decoded(LadderState.self, within: 20) { state in
                ["Mum", "Dad"].allSatisfy { name in state.recipients.contains { $0.name == name && $0.receipt != nil } }
            }
            ladder.cancel()

            try await world.stack.killAndRestart(.notifier)
            try await world.stack.killAndRestart(.web)

            // Tier 2 still comes, once; tier 1 was not told again by the restarted notifier.
            _ = try await world.waitForTexts(to: Self.sam, count: 1, within: 30)
            try await eventually("the dispatch webhook", within: 30) {
                ((try? await world.gateway.stats().hooks.count) ?? 0) >= 1
            }
            let page = try await world.stack.web().send("GET", mumText.path, json: nil)
            #expect(page.status == 200 && page.text.contains("pia"), "\(page.status)")

            try await pia.send(.imSafe)
            for number in [Self.mum, Self.dad, Self.sam] {
                _ = try await world.waitForTexts(to: number, count: 2)
            }
            try await Task.sleep(for: .seconds(1))
            for number in [Self.mum, Self.dad, Self.sam] {
                let texts = try await world.texts(to: number)
                #expect(texts.count == 2, "\(number): \(texts)")
            }
            #expect(try await world.gateway.stats().hooks.count == 2)
            await pia.leave()
        }
    }
}
