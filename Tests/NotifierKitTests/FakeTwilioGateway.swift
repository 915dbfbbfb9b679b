import AsyncHTTPClient
import Foundation
import NotifierKit
import TestSupport

/// A fake Twilio on a free 127.0.0.1 port (see ``FakeTwilioScript``), started per test.
final class FakeTwilioGateway: Sendable {
    static let sid = "AC0123456789abcdef0123456789abcdef"
    static let token = "test-auth-token"
    static let webhookSecret = "webhook-secret"

    let port: Int
    let directory: URL
    let process: ChildProcess

    struct Stats: Decodable {
        var requests: [String: Int]
        var accepted: [String: Int]
        var bodies: [String: [String]]
        var held: Int
        var hooks: [Hook]
        var order: [String]
        struct Hook: Decodable { var valid: Bool; var escalation: String? }
    }

    init() async throws {
        port = try Loopback.freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fake-twilio-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("fake_twilio.py")
        try FakeTwilioScript.source.write(to: script, atomically: true, encoding: .utf8)
        let python = try Executables.find("python3")
        process = try ChildProcess(python.path, [script.path, "\(port)", Self.sid, Self.token, Self.webhookSecret],
                                   logFile: directory.appendingPathComponent("server.log"))
        let port = port
        try await eventually("fake Twilio on \(port)", within: 10) { Loopback.isAccepting(port: port) }
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var messagesURL: String { "\(baseURL)/2010-04-01/Accounts/\(Self.sid)/Messages.json" }

    /// The gateway configured exactly as an operator would configure Twilio.
    var configuration: SMSGatewayConfiguration {
        SMSGatewayConfiguration(url: messagesURL, user: Self.sid, password: Self.token,
                                template: "From=%2B15125550100&To={phone}&Body={message}", timeout: 5)
    }

    /// The same, as environment variables for the executable.
    var environment: [String: String] {
        ["SAFEWALK_SMS_URL": messagesURL, "SAFEWALK_SMS_USER": Self.sid, "SAFEWALK_SMS_PASSWORD": Self.token,
         "SAFEWALK_SMS_TEMPLATE": "From=%2B15125550100&To={phone}&Body={message}"]
    }

    func stats() async throws -> Stats {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "\(baseURL)/_stats"), timeout: .seconds(5))
        let body = try await response.body.collect(upTo: 1 << 20)
        return try JSONDecoder().decode(Stats.self, from: Data(body.readableBytesView))
    }

    /// `failNext` requests fail with `status`; numbers in `hold` hang until `release`.
    func control(failNext: Int? = nil, status: Int? = nil, hold: [String]? = nil, release: Bool = false) async throws {
        var command: [String: Any] = ["release": release]
        if let failNext { command["fail_next"] = failNext }
        if let status { command["fail_status"] = status }
        if let hold { command["hold"] = hold }
        var request = HTTPClientRequest(url: "\(baseURL)/_control")
        request.method = .POST
        request.body = .bytes(Array(try JSONSerialization.data(withJSONObject: command)))
        _ = try await HTTPClient.shared.execute(request, timeout: .seconds(5))
    }

    func shutdown() async {
        process.signal(SIGTERM)
        _ = try? await process.waitForExit(within: 5)
        try? FileManager.default.removeItem(at: directory)
    }
}
