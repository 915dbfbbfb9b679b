import Foundation
import TestSupport
import Testing

/// Each screen of the app renders its key elements, in light and in dark, on a phone 412 px wide
/// and on the narrowest one the issue names (320 px) without sideways scrolling, with tap
/// targets of at least 48 px. With `SAFEWALK_SCREENSHOTS=1` the screenshots of 412 px go to
/// docs/images/app-<screen>-<light|dark>.png (the README shows them).
@Suite("End to end: the app's screens", .serialized)
struct AppScreenTests {
    /// Each screen and what must be on it.
    static let screens: [(name: String, keys: [String])] = [
        ("home", ["#status-hero", "#status-title", "#btn-im-safe", "#btn-need-help", "#btn-hold", "#btn-home-safe"]),
        ("walk", ["#walk-lat", "#walk-lon", "#walk-minutes", "#btn-start-walk", "#btn-start-watch", "#location-note"]),
        ("chat", ["#chat-log", "#qr-okay", "#qr-almost", "#qr-nervous", "#qr-help", "#chat-input"]),
        ("contacts", ["#contact-name", "#contact-phone", "#contact-add", "#contacts-list"]),
        ("circle", ["#circle-follow-user", "#circle-follow-submit", "#circle-inbox"]),
        (
            "settings",
            ["#pin-form", "#alarm-audible", "#fake-call-start", "#btn-owntracks", "#tour-open", "#btn-signout"]
        ),
    ]

    /// Buttons a walker in a hurry taps: each at least 48 × 48 CSS px.
    static let bigTargets = ["#btn-im-safe", "#btn-need-help", "#btn-hold", "#btn-home-safe"]

    @Test func everyScreenRendersItsKeyElementsInLightAndDark() async throws {
        try await AppWorld.run { world in
            let page = try await AppPage.open(world, location: .at(30.2849, -97.7341), skipTour: false)
            try await withPages([page]) {
                let browser = page.browser
                var backgrounds: [String: String] = [:]
                for scheme in ["light", "dark"] {
                    try await browser.emulate(colorScheme: scheme)
                    try await browser.waitForElement("#signin-submit")
                    try await Self.expectKeys(
                        ["#signin-username", "#signin-password", "#signin-submit", "#show-signup"], on: browser)
                    try await browser.saveScreenshot("app-signin-\(scheme)")
                    backgrounds[scheme] =
                        try await browser.evaluate(
                            "return getComputedStyle(document.body).backgroundColor;") as? String
                }
                #expect(backgrounds["light"] != backgrounds["dark"], "dark mode changes nothing: \(backgrounds)")
                try await browser.emulate(colorScheme: "light")
                try await page.signUp("wanda")

                // First use: the tour says what amber and red mean to the people who receive them.
                try await browser.waitForElement("#tour")
                for scheme in ["light", "dark"] {
                    try await browser.emulate(colorScheme: scheme)
                    try await browser.saveScreenshot("app-tour-\(scheme)")
                }
                var steps: [String] = []
                for _ in 0..<12 {
                    guard try await browser.isShown("#tour") else { break }
                    steps.append(try await browser.text("#tour-step") ?? "")
                    try await browser.click("#tour-next")
                }
                try await browser.waitForNoElement("#tour")
                let tour = steps.joined(separator: " ")
                #expect(
                    tour.localizedCaseInsensitiveContains("amber") && tour.localizedCaseInsensitiveContains("red"),
                    "\(tour)")

                for scheme in ["light", "dark"] {
                    try await browser.emulate(colorScheme: scheme)
                    for screen in Self.screens {
                        try await page.go(to: screen.name)
                        try await Self.expectKeys(screen.keys, on: browser)
                        _ = try await browser.evaluate("window.scrollTo(0, 0);")
                        try await browser.saveScreenshot("app-\(screen.name)-\(scheme)")
                    }
                }

                try await page.go(to: "home")
                for target in Self.bigTargets {
                    let size =
                        try await browser.evaluate(
                            "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.width, r.height];",
                            [target]) as? [Double] ?? []
                    #expect(size.count == 2 && size.allSatisfy { $0 >= 48 }, "\(target) is \(size)")
                }

                // The narrowest phone: nothing wider than the screen on any screen.
                try await browser.emulateScreen(width: 320, height: 640)
                for screen in Self.screens {
                    try await page.go(to: screen.name)
                    let widths =
                        try await browser.evaluate(
                            "return [document.documentElement.scrollWidth, document.documentElement.clientWidth];")
                        as? [Int] ?? []
                    #expect(widths.count == 2 && widths[0] <= widths[1], "\(screen.name) at 320 px: \(widths)")
                }
            }
        }
    }

    /// Every selector matches an element that is displayed and has a label a screen reader reads
    /// (its text, `aria-label`, `aria-labelledby` or a `<label for>`), where it is a control.
    static func expectKeys(_ selectors: [String], on browser: HeadlessBrowser) async throws {
        let script = """
            const e = document.querySelector(arguments[0]);
            if (!e || e.getClientRects().length === 0) return 'not shown';
            if (!['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA'].includes(e.tagName)) return 'ok';
            const label = (e.getAttribute('aria-label') || '') + (e.labels ? [...e.labels].map(l => l.textContent).join('') : '')
              + (e.getAttribute('aria-labelledby') ? 'x' : '') + (e.tagName === 'BUTTON' ? e.textContent : '');
            return label.trim() ? 'ok' : 'no label';
            """
        for selector in selectors {
            let verdict = try await browser.evaluate(script, [selector]) as? String
            #expect(verdict == "ok", "\(selector): \(verdict ?? "nil")")
        }
    }
}
