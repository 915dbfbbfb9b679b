import Foundation

/// Waiting for what a person would see. The page changes on its own (an event arrives, a timer
/// fires), and WebDriver has nothing to await for that, so these poll the DOM until it shows the
/// thing or the time is up; the time is a guard, never the assertion.
extension HeadlessBrowser {
    /// Waits until an element matching `selector` exists and is displayed (it has a box and is
    /// not `visibility: hidden`).
    public func waitForElement(_ selector: String, seconds: Double = 10) async throws {
        try await waitUntil(
            "(e => !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden')"
                + "(document.querySelector(\(Self.literal(selector))))",
            "\(selector) to show", seconds: seconds)
    }

    /// Waits until the element matching `selector` contains `text` (in its `textContent`); returns
    /// the whole text.
    @discardableResult
    public func waitForText(_ selector: String, containing text: String, seconds: Double = 10) async throws
        -> String
    {
        try await waitUntil(
            "((document.querySelector(\(Self.literal(selector))) || {}).textContent || '').includes(\(Self.literal(text)))",
            "\(selector) to say \"\(text)\"", seconds: seconds)
        return try await self.text(selector) ?? ""
    }

    /// Waits until no element matches `selector`, or the one that does is not displayed.
    public func waitForNoElement(_ selector: String, seconds: Double = 10) async throws {
        try await waitUntil(
            "(e => !e || e.getClientRects().length === 0)(document.querySelector(\(Self.literal(selector))))",
            "\(selector) to go", seconds: seconds)
    }

    /// Whether an element matching `selector` is displayed now.
    public func isShown(_ selector: String) async throws -> Bool {
        try await evaluate(
            "const e = document.querySelector(arguments[0]); return !!e && e.getClientRects().length > 0;",
            [selector]) as? Bool ?? false
    }

    /// `value` as a JavaScript string literal (JSON's string syntax is JavaScript's).
    static func literal(_ value: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [value])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
