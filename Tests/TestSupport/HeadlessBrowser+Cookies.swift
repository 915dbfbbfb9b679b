import Foundation

/// What a browser that has been here before holds: a cookie set by WebDriver is the browser's own
/// (HttpOnly included), sent with the next request to its origin like one a sign-in set.
extension HeadlessBrowser {
    /// Sets `name`=`value` for the origin of the page open now (WebDriver sets cookies only for
    /// the current document's domain, so open a page of the origin first).
    public func addCookie(
        name: String, value: String, path: String = "/", httpOnly: Bool = true, sameSite: String = "Strict"
    ) async throws {
        let cookie: [String: Any] = [
            "name": name, "value": value, "path": path, "httpOnly": httpOnly, "sameSite": sameSite,
        ]
        _ = try await command("POST", "cookie", ["cookie": cookie])
    }
}
