import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// A real headless Chromium (Debian's `chromium`), driven through `chromedriver` (Debian's
/// `chromium-driver`) over the W3C WebDriver protocol: plain HTTP and JSON on loopback, so the
/// page under test runs its own HTML, CSS and JavaScript exactly as a contact's phone would.
///
/// One browser per instance, with a phone-sized window; ``close()`` ends the session and the
/// driver (and the driver takes its browser with it).
public final class HeadlessBrowser: Sendable {
    let driver: ChildProcess
    let base: String
    let session: String
    let client: HTTPClient
    public let logFile: URL
    /// The DevTools session kept on each service worker (by target id): an emulation set
    /// through one session is undone only through the same one (HeadlessBrowser+CDP.swift).
    let workerSessions = Mutex<[String: String]>([:])

    /// The element reference key of the W3C protocol.
    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) { self.description = description }
    }

    /// Starts chromedriver on a free port and opens a headless session.
    public init(client: HTTPClient = .shared) async throws {
        let chromedriver = try Executables.find("chromedriver")
        let chromium = try Executables.find("chromium")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chromium-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        logFile = directory.appendingPathComponent("chromedriver.log")
        self.client = client
        (driver, base) = try await Self.startDriver(chromedriver, logFile: logFile)
        let capabilities: [String: Any] = [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome",
                    "goog:chromeOptions": [
                        "binary": chromium.path,
                        "args": [
                            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            "--window-size=412,915", "--user-data-dir=\(directory.path)/profile",
                        ],
                    ],
                ]
            ]
        ]
        let answer = try await Self.call(client, "POST", base + "/session", capabilities)
        guard let value = answer["value"] as? [String: Any], let id = value["sessionId"] as? String else {
            throw Failure(description: "no WebDriver session: \(answer)")
        }
        session = id
    }

    /// chromedriver on a free port, on a fresh one if another process bound the chosen port
    /// first (a CI run once lost its browser test to "bind() failed: Address already in use",
    /// from a port no other test had been given). Each attempt writes `log` anew.
    private static func startDriver(_ chromedriver: URL, logFile log: URL) async throws -> (ChildProcess, String) {
        try await Loopback.retryingTakenPort("chromedriver") {
            let port = try Loopback.freePort()
            try? FileManager.default.removeItem(at: log)
            let driver = try ChildProcess(chromedriver.path, ["--port=\(port)"], logFile: log)
            let deadline = ContinuousClock.now + .seconds(20)
            while !Loopback.isAccepting(port: port) {
                guard ContinuousClock.now < deadline, driver.exitStatusIfEnded() == nil else {
                    throw HarnessError.processFailed("chromedriver did not start: \(tail(log))")
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            return (driver, "http://127.0.0.1:\(port)")
        }
    }

    /// Ends the session and stops the driver.
    public func close() async {
        _ = try? await Self.call(client, "DELETE", "\(base)/session/\(session)", nil)
        driver.signal(SIGTERM)
        _ = try? await driver.waitForExit(within: 5)
    }

    /// Loads `url` and returns when the page's `load` event has fired.
    public func open(_ url: String) async throws {
        _ = try await command("POST", "url", ["url": url])
    }

    /// The `textContent` of the first element matching `selector` (nil when none does).
    public func text(_ selector: String) async throws -> String? {
        try await evaluate(
            "const e = document.querySelector(arguments[0]); return e ? e.textContent : null;", [selector])
            as? String
    }

    /// An attribute of the first element matching `selector`.
    public func attribute(_ selector: String, _ name: String) async throws -> String? {
        try await evaluate(
            "const e = document.querySelector(arguments[0]); return e ? e.getAttribute(arguments[1]) : null;",
            [selector, name]) as? String
    }

    /// Clicks the first element matching `selector` as a user would (the driver scrolls it into
    /// view and fails if something covers it). A page that redraws the element between finding
    /// and clicking it (a list re-rendered by an event) gets the new one, a few times at most.
    public func click(_ selector: String) async throws {
        for attempt in 1...3 {
            let found = try await command("POST", "element", ["using": "css selector", "value": selector])
            guard let value = found["value"] as? [String: Any], let element = value[Self.elementKey] as? String else {
                throw Failure(description: "no element \(selector): \(found)")
            }
            do {
                _ = try await command("POST", "element/\(element)/click", [:] as [String: Any])
                return
            } catch let failure as Failure where attempt < 3 && failure.description.contains("stale element") {
                continue
            }
        }
    }

    /// The page's current URL.
    public func currentURL() async throws -> String {
        (try await command("GET", "url", nil)["value"] as? String) ?? ""
    }

    /// Runs `script` (a function body; `arguments` holds `arguments`) in the page.
    public func evaluate(_ script: String, _ arguments: [Any] = []) async throws -> Any? {
        try await command("POST", "execute/sync", ["script": script, "args": arguments])["value"]
    }

    /// Waits until `condition` (a JavaScript expression) is true in the page, polling; throws with
    /// `what` after `seconds`.
    public func waitUntil(_ condition: String, _ what: String, seconds: Double = 10) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if (try await evaluate("return !!(\(condition));") as? Bool) == true { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Failure(description: "timed out waiting for \(what)")
    }

    /// A PNG of the viewport.
    public func screenshot() async throws -> Data {
        guard let text = try await command("GET", "screenshot", nil)["value"] as? String,
            let data = Data(base64Encoded: text)
        else { throw Failure(description: "no screenshot") }
        return data
    }

    /// One WebDriver command on this session (`path` under `/session/{id}/`).
    func command(_ method: String, _ path: String, _ body: Any?) async throws -> [String: Any] {
        try await Self.call(client, method, "\(base)/session/\(session)/\(path)", body)
    }

    static func call(_ client: HTTPClient, _ method: String, _ url: String, _ body: Any?) async throws
        -> [String: Any]
    {
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
        }
        let response = try await client.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 32 * 1024 * 1024)
        let object = (try? JSONSerialization.jsonObject(with: Data(bytes.readableBytesView))) as? [String: Any] ?? [:]
        guard response.status.code < 300 else {
            throw Failure(description: "WebDriver \(method) \(url): HTTP \(response.status.code) \(object)")
        }
        return object
    }

    static func tail(_ file: URL) -> String {
        String(((try? String(contentsOf: file, encoding: .utf8)) ?? "").suffix(2000))
    }
}
