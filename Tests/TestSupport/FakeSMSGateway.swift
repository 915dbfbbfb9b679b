import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A fake SMS gateway speaking Twilio's Messages API on a free 127.0.0.1 port (see
/// ``FakeSMSGatewayScript``), started per test. Needs `python3`.
public final class FakeSMSGateway: Sendable {
    public static let sid = "AC0123456789abcdef0123456789abcdef"
    public static let token = "test-auth-token"
    public static let webhookSecret = "webhook-secret"
    public static let template = "From=%2B15125550100&To={phone}&Body={message}"

    public let port: Int
    let directory: URL
    let process: ChildProcess

    public struct Stats: Decodable, Sendable {
        /// Requests per recipient number, accepted or not.
        public var requests: [String: Int]
        /// Messages accepted per recipient number.
        public var accepted: [String: Int]
        public var bodies: [String: [String]]
        /// Epoch seconds at which each accepted message was taken, per recipient number.
        public var times: [String: [Double]]?
        public var held: Int
        public var hooks: [Hook]
        public var order: [String]
        /// Status callbacks made, in order, with the HTTP status the callback URL answered.
        public var callbacks: [Callback]?
        /// The `Idempotency-Key` of each request per recipient number, in order (nil: none sent).
        public var keys: [String: [String?]]
        /// Requests answered with an earlier answer because their key had been seen (`idempotent`).
        public var replayed: Int
        public struct Callback: Decodable, Sendable {
            public var url: String
            public var to: String
            public var status: String
            public var http: Int
        }
        public struct Hook: Decodable, Sendable { public var valid: Bool; public var escalation: String? }
    }

    public init() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fake-twilio-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        (port, process) = try await Self.launch(in: directory)
    }

    /// Starts the server, on another port if the chosen one was taken before Python bound it.
    private static func launch(in directory: URL) async throws -> (Int, ChildProcess) {
        let script = directory.appendingPathComponent("fake_twilio.py")
        try FakeSMSGatewayScript.source.write(to: script, atomically: true, encoding: .utf8)
        let python = try Executables.find("python3")
        for _ in 0..<5 {
            let port = try Loopback.freePort()
            let process = try ChildProcess(
                python.path, [script.path, "\(port)", sid, token, webhookSecret],
                logFile: directory.appendingPathComponent("server.log"))
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline {
                if Loopback.isAccepting(port: port) { return (port, process) }
                if process.exitStatusIfEnded() != nil { break }  // e.g. the port was taken: try another
                try await Task.sleep(for: .milliseconds(20))
            }
            process.signal(SIGKILL)
        }
        throw HarnessError.processFailed(
            "fake SMS gateway did not start: \((try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? "")"
        )
    }

    /// The Python server's process id (CPU and memory readings in benchmarks).
    public var processID: pid_t { process.pid }

    public var baseURL: String { "http://127.0.0.1:\(port)" }
    public var messagesURL: String { "\(baseURL)/2010-04-01/Accounts/\(Self.sid)/Messages.json" }

    /// The notifier's `sms-http` channel configured exactly as an operator would configure Twilio,
    /// with a long timeout: on a loaded two-core run this Python server can answer a text after
    /// the default 10 s, and the notifier's retry (the right thing to do) would text the contact
    /// twice in a test about something else.
    public var environment: [String: String] {
        [
            "SAFEWALK_SMS_URL": messagesURL, "SAFEWALK_SMS_USER": Self.sid, "SAFEWALK_SMS_PASSWORD": Self.token,
            "SAFEWALK_SMS_TEMPLATE": Self.template, "SAFEWALK_SMS_TIMEOUT": "30",
        ]
    }

    public func stats() async throws -> Stats {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "\(baseURL)/_stats")!)
        return try JSONDecoder().decode(Stats.self, from: data)
    }

    /// `failNext` requests fail with `status`, and so does every request for the next `failFor`
    /// seconds; numbers in `hold` hang until `release`. The next text to a number in `slow` is
    /// accepted at once but answered that many seconds later. With `idempotent`, a request whose `Idempotency-Key`
    /// was already accepted gets the first answer and sends nothing (as the IETF draft describes;
    /// Twilio, the default here, does not document the header).
    public func control(
        failNext: Int? = nil, failFor: Double? = nil, status: Int? = nil, hold: [String]? = nil,
        release: Bool = false, undeliverable: [String]? = nil, slow: [String: Double]? = nil,
        idempotent: Bool? = nil
    ) async throws {
        var command: [String: Any] = ["release": release]
        if let slow { command["slow"] = slow }
        if let idempotent { command["idempotent"] = idempotent }
        if let failNext { command["fail_next"] = failNext }
        if let failFor { command["fail_for"] = failFor }
        if let status { command["fail_status"] = status }
        if let hold { command["hold"] = hold }
        if let undeliverable { command["undeliverable"] = undeliverable }
        var request = URLRequest(url: URL(string: "\(baseURL)/_control")!)
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: command)
        _ = try await URLSession.shared.data(for: request)
    }

    /// What Twilio does when `from` texts the SafeWalk number: a signed, form-encoded POST of the
    /// inbound message to `url` (the SMS webhook). Returns the webhook's HTTP status and body
    /// (TwiML), which Twilio would text back.
    public func textIn(from: String, body: String, to url: String) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: URL(string: "\(baseURL)/_inbound")!)
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: ["url": url, "from": from, "body": body])
        let (data, _) = try await URLSession.shared.data(for: request)
        struct Answer: Decodable { var status: Int; var body: String }
        let answer = try JSONDecoder().decode(Answer.self, from: data)
        return (answer.status, answer.body)
    }

    public func shutdown() async {
        process.signal(SIGTERM)
        _ = try? await process.waitForExit(within: 5)
        try? FileManager.default.removeItem(at: directory)
    }
}
