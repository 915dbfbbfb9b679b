import Foundation

/// What a phone's browser can be told about its surroundings, through the Chrome DevTools
/// Protocol that chromedriver forwards (`POST /session/{id}/goog/cdp/execute`): permissions,
/// where the phone is, whether it has a network, its colour scheme and motion preference.
extension HeadlessBrowser {
    /// One DevTools command on the page's target; its result.
    @discardableResult
    public func cdp(_ method: String, _ parameters: [String: Any] = [:]) async throws -> [String: Any] {
        let answer = try await command("POST", "goog/cdp/execute", ["cmd": method, "params": parameters])
        return answer["value"] as? [String: Any] ?? [:]
    }

    /// Grants `permissions` (`geolocation`, `notifications`, …) to `origin` (every origin when
    /// nil), as a person tapping "Allow" would; the page is never asked.
    public func grant(_ permissions: [String], origin: String? = nil) async throws {
        var parameters: [String: Any] = ["permissions": permissions]
        if let origin { parameters["origin"] = origin }
        try await cdp("Browser.grantPermissions", parameters)
    }

    /// Sets one permission to `granted`, `denied` or `prompt`, as "Block" in a phone's settings
    /// would: the page's request then fails as it would there (geolocation: `PERMISSION_DENIED`).
    public func setPermission(_ name: String, _ setting: String, origin: String? = nil) async throws {
        var parameters: [String: Any] = ["permission": ["name": name], "setting": setting]
        if let origin { parameters["origin"] = origin }
        try await cdp("Browser.setPermission", parameters)
    }

    /// Where the phone says it is from now on: `watchPosition` callbacks fire with it, so moving
    /// this step by step walks a route.
    public func setLocation(latitude: Double, longitude: Double, accuracy: Double = 5) async throws {
        try await cdp(
            "Emulation.setGeolocationOverride", ["latitude": latitude, "longitude": longitude, "accuracy": accuracy])
    }

    /// The phone has no position to give (no fix, no signal): `POSITION_UNAVAILABLE`.
    public func loseLocation() async throws {
        try await cdp("Emulation.setGeolocationOverride")
    }

    /// The colour scheme and motion preference the page's media queries see
    /// (`prefers-color-scheme`, `prefers-reduced-motion`); nil leaves one as the system has it.
    public func emulate(colorScheme: String? = nil, reducedMotion: Bool? = nil) async throws {
        var features: [[String: String]] = []
        if let colorScheme { features.append(["name": "prefers-color-scheme", "value": colorScheme]) }
        if let reducedMotion {
            features.append(["name": "prefers-reduced-motion", "value": reducedMotion ? "reduce" : "no-preference"])
        }
        try await cdp("Emulation.setEmulatedMedia", ["features": features])
    }

    /// The screen the page lays itself out for: `width` × `height` CSS pixels, as a phone
    /// (`mobile`: the viewport meta tag applies, scrollbars overlay).
    public func emulateScreen(width: Int, height: Int, mobile: Bool = true) async throws {
        try await cdp(
            "Emulation.setDeviceMetricsOverride",
            ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile])
    }

    /// Runs `source` in every document this tab loads from now on, before the page's own scripts
    /// (`Page.addScriptToEvaluateOnNewDocument`): to watch a page from its first moment, or to
    /// set what a returning visitor's storage would hold.
    public func runOnEveryNewDocument(_ source: String) async throws {
        try await cdp("Page.enable")
        try await cdp("Page.addScriptToEvaluateOnNewDocument", ["source": source])
    }

    /// Takes the phone off the network, or puts it back: the page and every service worker
    /// running now. A service worker's own `fetch` is not the page's (DevTools emulates per
    /// target), and chromedriver only talks to the page; so each worker gets the same command
    /// through a session of its own, sent with `Target.sendMessageToTarget` (whose answers arrive
    /// as events chromedriver drops: proven by its effect, in HeadlessBrowserCapabilityTests).
    /// The workers' command is not answered (its answer is an event too), so it takes effect a
    /// moment after this returns: wait for its effect. A worker started after this call is
    /// online; call again after one starts.
    public func setOffline(_ offline: Bool) async throws {
        let conditions: [String: Any] = [
            "offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1,
        ]
        try await cdp("Network.enable")
        try await cdp("Network.emulateNetworkConditions", conditions)
        for worker in try await serviceWorkerTargets() {
            let session = try await workerSession(worker)
            try await send(to: session, "Network.enable", [:])
            try await send(to: session, "Network.emulateNetworkConditions", conditions)
        }
    }

    /// The ids of the service workers running now.
    func serviceWorkerTargets() async throws -> [String] {
        let targets = try await cdp("Target.getTargets")["targetInfos"] as? [[String: Any]] ?? []
        return targets.filter { $0["type"] as? String == "service_worker" }.compactMap { $0["targetId"] as? String }
    }

    /// The DevTools session on `target` whose commands go through the page's connection (the same
    /// one each time: DevTools keeps an emulation per session).
    private func workerSession(_ target: String) async throws -> String {
        if let known = workerSessions.withLock({ $0[target] }) { return known }
        let attached = try await cdp("Target.attachToTarget", ["targetId": target, "flatten": false])
        guard let session = attached["sessionId"] as? String else {
            throw Failure(description: "no DevTools session on service worker \(target): \(attached)")
        }
        workerSessions.withLock { $0[target] = session }
        return session
    }

    private func send(to session: String, _ method: String, _ parameters: [String: Any]) async throws {
        let message = try JSONSerialization.data(
            withJSONObject: ["id": Int.random(in: 1...1_000_000), "method": method, "params": parameters])
        try await cdp(
            "Target.sendMessageToTarget", ["sessionId": session, "message": String(decoding: message, as: UTF8.self)])
    }
}
