import Foundation
import GRDB
import SafeWalkCore
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 17's hostile input over real HTTP: the real `web` executable, with the real
/// `broker-admin` on the broker with the plugin. Whatever arrives, web stays up, answers each
/// request with a JSON refusal it counts, and its store stays consistent with the plugin's logins.
@Suite("Hostile HTTP against the running web", .serialized)
struct HostileHTTPStackTests {
    /// A request web cannot read, and its refusal: (what, body, content type, sent chunked, status, reason).
    static let unreadable: [(String, [UInt8], String?, Bool, Int, String)] = {
        let good = SignUpAttempt.json(["username": "u", "email": "u@example.org", "password": SignUpAttempt.password])
        let json = "application/json"
        return [
            ("declared over the limit", good + Array(repeating: 0x20, count: 20_000), json, false, 413, "tooLarge"),
            ("a megabyte, declared", Array(repeating: 0x20, count: 1 << 20), json, false, 413, "tooLarge"),
            ("over the limit, chunked", good + Array(repeating: 0x20, count: 100_000), json, true, 413, "tooLarge"),
            ("text/plain", good, "text/plain", false, 415, "unsupportedMediaType"),
            ("a form", good, "application/x-www-form-urlencoded", false, 415, "unsupportedMediaType"),
            ("no content type", good, nil, false, 415, "unsupportedMediaType"),
            ("latin-1 JSON", good, "application/json; charset=latin1", false, 415, "unsupportedMediaType"),
            ("invalid UTF-8", [0x7B, 0xFF, 0xFE, 0x7D], json, false, 400, "invalidUTF8"),
            (
                "an overlong slash", Array(#"{"username":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8), json, false,
                400,
                "invalidUTF8"
            ),
            (
                "a lone surrogate", [0x7B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x3A, 0x31, 0x7D], json, false, 400,
                "invalidUTF8"
            ),
            (
                "8,000 open brackets", Array(String(repeating: "[", count: 8_000).utf8), json, false, 400,
                "malformedJSON"
            ),
            (
                "an array 5,000 deep",
                Array((String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)).utf8),
                json, false, 400, "malformedJSON"
            ),
            ("cut short", Array(#"{"username":"u","email""#.utf8), json, false, 400, "malformedJSON"),
            ("null", Array("null".utf8), json, false, 400, "malformedJSON"),
            ("empty", [], json, false, 400, "malformedJSON"),
        ]
    }()

    @Test func unreadableRequestsAreRefusedCountedAndLeaveNothing() async throws {
        try await ServiceStack.withAccounts(services: [], openMetricsPorts: true) { stack in
            var sent: [String: Int] = [:]
            for (what, body, type, chunked, status, reason) in Self.unreadable {
                let response = try await stack.web().send(
                    "POST", "/v1/accounts", body: body, contentType: type, declaringLength: !chunked)
                #expect(response.status == status, "\(what)")
                #expect(response.refusal == .init(field: nil, reason: reason), "\(what)")
                sent[reason, default: 0] += 1
            }
            let nested = String(repeating: #"{"a":"#, count: 2_000) + "1" + String(repeating: "}", count: 2_000)
            let deep = try await stack.web().send("POST", "/v1/accounts", body: Array(nested.utf8))
            #expect(deep.status == 400, "an object 2,000 deep: \(deep.status)")
            // JSON's depth limit or a field it lacks, either way a counted refusal.
            let deepRefusal = try #require(deep.refusal)
            sent[[deepRefusal.field, deepRefusal.reason].compactMap { $0 }.joined(separator: "_"), default: 0] += 1
            for (method, path) in [("GET", "/v1/accounts"), ("PATCH", "/v1/accounts/alice"), ("GET", "/../etc/passwd")]
            {
                let response = try await stack.web().send(method, path, contentType: nil)
                #expect(response.status == 404 && response.refusal?.reason == "notFound", "\(method) \(path)")
                sent["notFound", default: 0] += 1
            }
            try await Self.expectUp(stack)
            #expect(try await stack.httpRejections() == sent)
            // Headers past web's 16 KiB: refused however the server likes, as long as it stays up.
            _ = try? await stack.web().send(
                "POST", "/v1/accounts", body: [], headers: [("X-Padding", String(repeating: "a", count: 20_000))])
            try await Self.expectUp(stack)
            #expect(try Self.accounts(in: stack).isEmpty)
            #expect(try await stack.pluginLogins() == [DynamicSecurityBroker.adminUsername])
            #expect(try await stack.web().signUp("alice", password: SignUpAttempt.password).status == 201)
        }
    }

    /// Web is running, and its `/health` says online.
    static func expectUp(_ stack: ServiceStack) async throws {
        #expect(stack.exited.isEmpty, "\(stack.exited)")
        let health = try #require(stack.metricsPorts[.web].flatMap { URL(string: "http://127.0.0.1:\($0)/health") })
        let (_, response) = try await URLSession.shared.data(from: health)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    /// Every account in web's store, by username, with its state.
    static func accounts(in stack: ServiceStack) throws -> [String: String] {
        let file = try #require(stack.dataDirectory(of: .web)).appendingPathComponent("web.sqlite")
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: file.path, configuration: configuration)
        defer { try? database.close() }
        return try database.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT username, state FROM accounts").map {
                    (row: Row) -> (String, String) in (row["username"], row["state"])
                })
        }
    }
}

extension ServiceStack {
    /// `safewalk_http_rejections_total` of web by reason, scraped from its `/metrics`.
    func httpRejections() async throws -> [String: Int] {
        let (data, _) = try await URLSession.shared.data(from: metricsURL(of: .web)!)
        return PrometheusText.counter(
            "safewalk_http_rejections_total", by: "reason", in: String(decoding: data, as: UTF8.self))
    }
}
