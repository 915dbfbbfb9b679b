import Foundation
import TestSupport
import Testing

/// The browser the page tests drive is real: Chromium runs the page's own script, and a click is a
/// click. Proven here on a page with nothing of ours in it, so a failure of a page test is the
/// page's, not the harness's.
@Suite struct HeadlessBrowserTests {
    @Test func aClickRunsThePagesOwnScript() async throws {
        let browser = try await HeadlessBrowser()
        do {
            let page =
                "<!doctype html><title>t</title><button id=b onclick=\"this.textContent='pressed'\">press</button>"
            try await browser.open(
                "data:text/html," + page.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            #expect(try await browser.text("#b") == "press")
            try await browser.click("#b")
            try await browser.waitUntil("document.querySelector('#b').textContent === 'pressed'", "the click")
            #expect(try await browser.text("#b") == "pressed")
            #expect(try await browser.text("#missing") == nil)
            let png = try await browser.screenshot()
            #expect(png.starts(with: [0x89, 0x50, 0x4e, 0x47]))  // a PNG
        } catch {
            await browser.close()
            throw error
        }
        await browser.close()
    }
}
