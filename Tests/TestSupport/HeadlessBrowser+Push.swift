import Foundation

/// A push message handed to the page's service worker as the browser's push service would hand
/// it one: the worker's `push` event fires with the data, whether or not the page is open.
/// (Through DevTools' `ServiceWorker.deliverPushMessage`, not a real push service: the app's
/// encryption and the push service's own path are the push tests' job, FakePushService.)
extension HeadlessBrowser {
    /// Delivers `data` to the `push` handler of the service worker registered for `scope` (an
    /// origin with a trailing `/`, say). Returns once DevTools took it; the worker's effect
    /// (a notification, a message to the page) is the caller's to wait for.
    public func deliverPush(_ data: String, scope: String) async throws {
        let registration = try await serviceWorkerRegistrationID(scope: scope)
        guard let url = URL(string: scope), let scheme = url.scheme, let host = url.host else {
            throw Failure(description: "not a scope: \(scope)")
        }
        let origin = "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
        try await cdp("ServiceWorker.enable")
        try await cdp(
            "ServiceWorker.deliverPushMessage", ["origin": origin, "registrationId": registration, "data": data])
    }

    /// The registration id DevTools knows the worker of `scope` by. DevTools announces it only in
    /// events (`ServiceWorker.workerRegistrationUpdated`), which chromedriver's command route
    /// drops; the browser's own `chrome://serviceworker-internals` page lists it, so it is read
    /// there, in a tab of its own that is closed again.
    public func serviceWorkerRegistrationID(scope: String, seconds: Double = 10) async throws -> String {
        let page = try await command("GET", "window", nil)["value"] as? String ?? ""
        let opened = try await command("POST", "window/new", ["type": "tab"])
        guard let tab = (opened["value"] as? [String: Any])?["handle"] as? String else {
            throw Failure(description: "no new tab: \(opened)")
        }
        _ = try await command("POST", "window", ["handle": tab])
        do {
            _ = try await command("POST", "url", ["url": "chrome://serviceworker-internals/"])
            let id = try await registrationID(scope: scope, seconds: seconds)
            _ = try await command("DELETE", "window", nil)
            _ = try await command("POST", "window", ["handle": page])
            return id
        } catch {
            _ = try? await command("DELETE", "window", nil)
            _ = try? await command("POST", "window", ["handle": page])
            throw error
        }
    }

    /// Reads the internals page's text until it lists `scope` with its id (a worker still
    /// registering shows up a moment later).
    private func registrationID(scope: String, seconds: Double) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            let text = try await evaluate("return document.body ? document.body.innerText : '';") as? String ?? ""
            if let id = Self.registrationID(of: scope, in: text) { return id }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure(description: "no service worker registered for \(scope)")
    }

    /// In the internals page's text, each registration is a block `Scope: …` … `Registration ID: n`.
    static func registrationID(of scope: String, in text: String) -> String? {
        let blocks = text.components(separatedBy: "Scope: ").dropFirst()
        guard let block = blocks.first(where: { $0.hasPrefix(scope + "\n") }),
            let line = block.split(separator: "\n").first(where: { $0.hasPrefix("Registration ID: ") })
        else { return nil }
        return String(line.dropFirst("Registration ID: ".count)).trimmingCharacters(in: .whitespaces)
    }

    /// The notifications the page's service worker shows now (`registration.getNotifications()`):
    /// each one's title, body and tag.
    public func notifications() async throws -> [(title: String, body: String, tag: String)] {
        let script = """
            const done = arguments[arguments.length - 1];
            navigator.serviceWorker.getRegistration()
              .then(r => r ? r.getNotifications() : [])
              .then(ns => done(ns.map(n => [n.title, n.body, n.tag])), e => done([]));
            """
        let shown = try await evaluateAsync(script) as? [[String]] ?? []
        return shown.filter { $0.count == 3 }.map { ($0[0], $0[1], $0[2]) }
    }

    /// Runs `script` with a callback as its last argument and returns what it passes to it.
    public func evaluateAsync(_ script: String, _ arguments: [Any] = []) async throws -> Any? {
        try await command("POST", "execute/async", ["script": script, "args": arguments])["value"]
    }
}
