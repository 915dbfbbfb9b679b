import Foundation
import TestSupport
import Testing

/// A walker opens the app in a hurry, maybe on a weak signal: its first render must take under
/// 1 s on loopback and under 300 KB on the wire (map tiles aside). The bytes are the same on every
/// machine and are asserted here; the time is wall clock, which a loaded CI machine stretches
/// (1,388 ms once, beside a release build), so it is printed beside its same-run baseline and
/// judged in BENCHMARKS.md, never asserted in a test. Measured in the browser, from
/// the navigation's start to the moment the app shows its screen (`body[data-screen]` set, seen
/// by an observer installed before any of the page's scripts run), with every byte the page
/// fetched up to then (Navigation and Resource Timing `transferSize`: headers and compressed
/// bodies). A fresh browser each time: no HTTP cache, no service worker, nothing stored.
@Suite("End to end: the app's first render", .serialized)
struct AppFirstRenderTests {
    /// Records when the app's script first sets `body[data-screen]` (the shell has it on `<body>`
    /// already: the markup alone is not a render of the app), and when the stream connects.
    static let marker = """
        new MutationObserver(records => {
          for (const r of records) {
            if (r.type !== 'attributes' || r.target !== document.body) continue;
            const b = document.body;
            if (r.attributeName === 'data-screen' && window.__firstRender === undefined) {
              window.__firstRender = performance.now(); window.__firstScreen = b.dataset.screen;
            }
            if (b.dataset.stream === 'connected' && window.__connected === undefined) window.__connected = performance.now();
          }
        }).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-screen', 'data-stream']});
        """

    struct Render: CustomStringConvertible {
        var screen: String
        var milliseconds: Double
        var bytes: Int
        var requests: Int
        var connectedMilliseconds: Double?
        var workerCacheBytes: Int

        var description: String {
            "screen=\(screen) first_render_ms=\(Int(milliseconds.rounded())) transferred_bytes=\(bytes) "
                + "requests=\(requests) stream_connected_ms=\(connectedMilliseconds.map { "\(Int($0.rounded()))" } ?? "-") "
                + "sw_cache_bytes=\(workerCacheBytes)"
        }
    }

    @Test func theFirstRenderShowsItsScreenInUnder300KB() async throws {
        try await AppWorld.run { world in
            // A new visitor: the sign-in screen.
            let visitor = try await Self.measure(world, cookie: nil)
            print("APP-FIRST-RENDER visitor \(visitor)")

            // A signed-in walker opening the app in a browser that has nothing cached: home.
            let web = world.stack.web()
            #expect(try await web.signUp("wanda", password: "walk-safe-1").status == 201)
            let session = try #require(try await web.signIn("wanda", "walk-safe-1").session)
            let walker = try await Self.measure(world, cookie: session.cookie)
            print("APP-FIRST-RENDER walker \(walker)")

            // The baseline, in the same run: a fresh browser loading one small answer of the same
            // web (no script, no style): what any page costs here before it does anything.
            let floor = try await Self.oneResponse(world)
            print(
                "APP-FIRST-RENDER baseline one_response_ms=\(Int(floor.rounded())) "
                    + "ratio_visitor=\(String(format: "%.1f", visitor.milliseconds / max(floor, 1))) "
                    + "ratio_walker=\(String(format: "%.1f", walker.milliseconds / max(floor, 1)))")

            for render in [visitor, walker] {
                #expect(render.bytes < 300 * 1024, "\(render)")
            }
            #expect(visitor.screen == "signin" && walker.screen == "home")
        }
    }

    /// Opens the app in a fresh browser (with `cookie`, `name=value`, when given) and measures.
    static func measure(_ world: AppWorld, cookie: String?) async throws -> Render {
        let browser = try await HeadlessBrowser()
        do {
            try await browser.runOnEveryNewDocument(
                "localStorage.setItem('safewalk.tourDone', '1');" + marker)
            if let cookie, let equals = cookie.firstIndex(of: "=") {
                // WebDriver sets cookies for the open document's origin: a page of web's that is not the app.
                try await browser.open(world.stack.publicURL + "/v1/sessions/current")
                try await browser.addCookie(
                    name: String(cookie[..<equals]), value: String(cookie[cookie.index(after: equals)...]))
            }
            try await browser.open(world.appURL)
            try await browser.waitUntil("window.__firstRender !== undefined", "the first render")
            if cookie != nil {
                try await browser.waitUntil("window.__connected !== undefined", "the stream", seconds: 20)
            }
            _ = try await browser.evaluateAsync("navigator.serviceWorker.ready.then(() => arguments[0](true));")
            let render = try await render(in: browser, origin: world.stack.publicURL + "/")
            await browser.close()
            return render
        } catch {
            await browser.close()
            throw error
        }
    }

    /// Milliseconds from navigation start until a fresh browser has loaded `/v1/sessions/current`
    /// (a 401 of a few bytes from the same web): the floor under any first render here.
    static func oneResponse(_ world: AppWorld) async throws -> Double {
        let browser = try await HeadlessBrowser()
        do {
            try await browser.open(world.stack.publicURL + "/v1/sessions/current")
            try await browser.waitUntil(
                "performance.getEntriesByType('navigation')[0].loadEventEnd > 0", "the answer loaded")
            let end =
                try await browser.evaluate("return performance.getEntriesByType('navigation')[0].loadEventEnd;")
                as? Double ?? .infinity
            await browser.close()
            return end
        } catch {
            await browser.close()
            throw error
        }
    }

    /// The numbers, read in the page: everything fetched from web (`origin`) up to the first
    /// render (map tiles come from a tile server elsewhere; none are configured here anyway).
    /// The service worker's cache is read after it is ready: what it fetched for itself, bodies
    /// uncompressed, in the background and not needed for the first render.
    static func render(in browser: HeadlessBrowser, origin: String) async throws -> Render {
        let first = try await browser.evaluate("return window.__firstRender;") as? Double ?? .infinity
        let screen = try await browser.evaluate("return window.__firstScreen;") as? String ?? ""
        let connected =
            try await browser.evaluate("return window.__connected === undefined ? null : window.__connected;")
            as? Double
        let document = try await browser.navigationEntry()
        let resources = try await browser.resourceEntries().filter { $0.start <= first && $0.name.hasPrefix(origin) }
        let cached = """
            const done = arguments[arguments.length - 1];
            (async () => { let n = 0; for (const k of await caches.keys()) { const c = await caches.open(k);
              for (const r of await c.keys()) n += (await (await c.match(r)).arrayBuffer()).byteLength; } return n; })()
              .then(done, () => done(0));
            """
        let workerBytes = try await browser.evaluateAsync(cached) as? Int ?? 0
        return Render(
            screen: screen, milliseconds: first,
            bytes: document.transferSize + resources.map(\.transferSize).reduce(0, +),
            requests: 1 + resources.count, connectedMilliseconds: connected, workerCacheBytes: workerBytes)
    }
}
