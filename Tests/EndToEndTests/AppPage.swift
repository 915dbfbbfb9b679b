import Foundation
import TestSupport
import Testing

/// One phone with the walker's app open in a real headless Chromium: the page web serves at `/`,
/// driven through its stable ids (Services/web/Kit/AppFiles/README.md) as a person would drive it:
/// typing, tapping, holding. The tour is marked done before the first load, as for a returning
/// user, except where a story wants to see it.
struct AppPage: Sendable {
    let browser: HeadlessBrowser
    let url: String
    let password = "walk-safe-1"

    /// What the phone's location permission and position are when the app opens.
    enum Location: Sendable {
        /// Allowed, and the phone is here.
        case at(Double, Double)
        /// The walker tapped "Block".
        case denied
    }

    /// A new browser (its own profile: no cookies, no storage, no service worker) on the app.
    static func open(_ world: AppWorld, location: Location, skipTour: Bool = true) async throws -> AppPage {
        let browser = try await HeadlessBrowser()
        let page = AppPage(browser: browser, url: world.appURL)
        do {
            let origin = String(world.appURL.dropLast())
            switch location {
            case .at(let latitude, let longitude):
                try await browser.grant(["geolocation", "notifications"], origin: origin)
                try await browser.setLocation(latitude: latitude, longitude: longitude)
            case .denied:
                try await browser.grant(["notifications"], origin: origin)
                try await browser.setPermission("geolocation", "denied", origin: origin)
            }
            if skipTour {
                try await browser.runOnEveryNewDocument("localStorage.setItem('safewalk.tourDone', '1');")
            }
            try await browser.open(world.appURL)
            try await browser.waitUntil("document.body.dataset.screen", "the app to show a screen")
        } catch {
            await browser.close()
            throw error
        }
        return page
    }

    func close() async { await browser.close() }

    /// Creates the account with the app's sign-up form; returns once the home screen shows and
    /// the event stream is connected.
    func signUp(_ name: String) async throws {
        try await browser.waitForElement("#show-signup")
        try await browser.click("#show-signup")
        try await browser.waitForElement("#signup-username")
        try await browser.type(name, into: "#signup-username")
        try await browser.type("\(name)@example.org", into: "#signup-email")
        try await browser.type(password, into: "#signup-password")
        try await browser.click("#signup-submit")
        try await signedIn(as: name)
    }

    /// Signs in with the app's form.
    func signIn(_ name: String) async throws {
        try await browser.waitForElement("#signin-username")
        try await browser.type(name, into: "#signin-username")
        try await browser.type(password, into: "#signin-password")
        try await browser.click("#signin-submit")
        try await signedIn(as: name)
    }

    private func signedIn(as name: String) async throws {
        do {
            try await browser.waitUntil(
                "document.body.dataset.signedIn === 'true' && document.body.dataset.screen === 'home'",
                "the home screen", seconds: 20)
        } catch {
            let said = (try? await browser.text("#signup-error")) ?? ""
            let saidToo = (try? await browser.text("#signin-error")) ?? ""
            throw HeadlessBrowser.Failure(description: "\(error): '\(said)' '\(saidToo)'")
        }
        #expect(try await browser.text("#whoami") == name)
        try await connected()
    }

    /// Waits until the page's event stream is connected (its subscriptions are in place).
    func connected(seconds: Double = 20) async throws {
        try await browser.waitUntil(
            "document.body.dataset.stream === 'connected'", "the event stream", seconds: seconds)
    }

    /// Shows one of the app's screens through its navigation bar.
    func go(to screen: String) async throws {
        try await browser.click("#nav-\(screen)")
        try await browser.waitUntil("document.body.dataset.screen === '\(screen)'", "the \(screen) screen")
    }

    /// The status hero's `data-` attribute `name`.
    func hero(_ name: String) async throws -> String? {
        try await browser.attribute("#status-hero", "data-\(name)")
    }

    /// Waits until the status hero's `data-state` is `state`.
    func waitForState(_ state: String, seconds: Double = 20) async throws {
        try await browser.waitUntil(
            "document.getElementById('status-hero').dataset.state === '\(state)'", "the hero to say \(state)",
            seconds: seconds)
    }

    /// Adds a contact with the contacts screen's form and waits until the list shows it.
    func addContact(_ name: String, phone: String) async throws {
        try await go(to: "contacts")
        try await browser.type(name, into: "#contact-name")
        try await browser.type(phone, into: "#contact-phone")
        try await browser.click("#contact-add")
        try await browser.waitUntil(
            "[...document.querySelectorAll('[data-testid=contact]')].some(e => e.textContent.includes('\(name)'))",
            "\(name) in the contacts list")
    }

    /// Number of elements matching `selector`.
    func count(_ selector: String) async throws -> Int {
        try await browser.evaluate("return document.querySelectorAll(arguments[0]).length;", [selector]) as? Int ?? 0
    }

    /// The `href` of every element matching `selector`.
    func links(_ selector: String) async throws -> [String] {
        try await browser.evaluate(
            "return [...document.querySelectorAll(arguments[0])].map(a => a.getAttribute('href'));", [selector])
            as? [String] ?? []
    }
}

/// Runs `story` with `pages` and closes them whatever happened.
func withPages<T>(_ pages: [AppPage], _ story: () async throws -> T) async throws -> T {
    do {
        let result = try await story()
        for page in pages { await page.close() }
        return result
    } catch {
        for page in pages {
            // For a person to look at; never into docs/.
            if let shot = try? await page.browser.screenshot() {
                let name = "app-failure-\(UUID().uuidString.prefix(6)).png"
                try? shot.write(to: FileManager.default.temporaryDirectory.appendingPathComponent(name))
            }
            await page.close()
        }
        throw error
    }
}
