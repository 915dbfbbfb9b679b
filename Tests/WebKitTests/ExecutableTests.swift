import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOSSL
import SafeWalkWebKit
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `web` executable, on a real broker: it serves the API from its environment, survives
/// hostile bodies, speaks HTTPS when given a certificate, and stops cleanly on SIGTERM.
@Suite(.serialized, .holdsResources) struct ExecutableTests {
    func start(_ broker: MosquittoBroker, port: Int, environment: [String: String] = [:]) async throws -> ChildProcess {
        let process = try ServiceProcess.start(
            Web.name, broker: broker, environment: ["SAFEWALK_HTTP_PORT": "\(port)"].merging(environment) { $1 })
        for _ in 0..<200 {
            if Loopback.isAccepting(port: port) { return process }
            if let status = process.exitStatusIfEnded() {
                throw HarnessError.processFailed("web exited \(status): \(process.output)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw HarnessError.timedOut("web listening on \(port): \(process.output)")
    }

    func client(_ port: Int, tls: TLSConfiguration? = nil) -> TestClient {
        TestClient(
            host: "localhost", port: port,
            configuration: .init(
                tlsConfiguration: tls, timeout: .seconds(20), serverName: tls == nil ? nil : "localhost"))
    }

    @Test func theExecutableRefusesHostileBodiesAndStaysUpAndCountsThem() async throws {
        let broker = try await MosquittoBroker.start()
        let port = try Loopback.freePort()
        let metricsPort = try Loopback.freePort()
        let web = try await start(
            broker, port: port,
            environment: ["SAFEWALK_METRICS_PORT": "\(metricsPort)", "SAFEWALK_BROKER_ADMIN_WAIT": "0.5"])
        let client = client(port)
        client.connect()
        let json: HTTPFields = [.contentType: "application/json"]
        let oversized = try await client.post(
            "/v1/accounts", headers: json, body: ByteBuffer(string: String(repeating: "x", count: 20_000)))
        #expect(oversized.status == .contentTooLarge)
        let wrongType = try await client.post(
            "/v1/accounts", headers: [.contentType: "text/plain"], body: ByteBuffer(string: "{}"))
        #expect(wrongType.status == .unsupportedMediaType)
        let invalid = try await client.post(
            "/v1/accounts", headers: json, body: ByteBuffer(bytes: [0x7B, 0xFF, 0xFE, 0x7D]))
        #expect(invalid.status == .badRequest)
        let unknown = try await client.get("/admin")
        #expect(unknown.status == .notFound)
        #expect(unknown.headers[.contentType]?.hasPrefix("application/json") == true)
        // No broker-admin is on this broker: a good sign-up is refused as unavailable after the
        // wait, and leaves nothing behind.
        let signUp = try await client.post(
            "/v1/accounts", headers: json,
            body: ByteBuffer(string: #"{"username":"alice","email":"alice@example.org","password":"walk-safe-1"}"#))
        #expect(signUp.status == .serviceUnavailable)
        try await client.shutdown()
        let metrics = try await TestClient.withClient(host: "127.0.0.1", port: metricsPort) { client in
            String(buffer: try await client.get("/metrics").body ?? ByteBuffer())
        }
        let rejections = metrics.split(separator: "\n").filter { $0.hasPrefix("safewalk_http_rejections_total{") }
        for reason in ["tooLarge", "unsupportedMediaType", "invalidUTF8", "notFound"] {
            #expect(
                rejections.contains { $0.contains(#"reason="\#(reason)""#) && $0.hasSuffix(" 1") },
                "\(reason) in \(rejections)")
        }
        web.signal(SIGTERM)
        #expect(try await web.waitForExit(within: 15) == 0)
        await broker.shutdown()
    }

    @Test func theExecutableServesHTTPSWhenGivenACertificate() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "web-tls-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (status, output) = try await ChildProcess.run(
            try Executables.find("openssl"),
            [
                "req", "-x509", "-newkey", "rsa:2048", "-days", "1", "-nodes", "-keyout", "key.pem", "-out", "cert.pem",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
            ], in: directory)
        try #require(status == 0, "openssl: \(output)")
        let broker = try await MosquittoBroker.start()
        let port = try Loopback.freePort()
        let web = try await start(
            broker, port: port,
            environment: [
                "SAFEWALK_TLS_CERT": directory.appendingPathComponent("cert.pem").path,
                "SAFEWALK_TLS_KEY": directory.appendingPathComponent("key.pem").path,
            ])
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(
            try NIOSSLCertificate.fromPEMFile(directory.appendingPathComponent("cert.pem").path))
        let client = client(port, tls: tls)
        client.connect()
        let response = try await client.get("/v1/nothing")
        #expect(response.status == .notFound)
        try await client.shutdown()
        web.signal(SIGTERM)
        #expect(try await web.waitForExit(within: 15) == 0)
        await broker.shutdown()
    }

    @Test func aCertificateWithoutItsKeyIsAConfigurationError() async throws {
        let broker = try await MosquittoBroker.start()
        let web = try ServiceProcess.start(
            Web.name, broker: broker,
            environment: ["SAFEWALK_HTTP_PORT": "\(try Loopback.freePort())", "SAFEWALK_TLS_CERT": "/nonexistent.pem"])
        #expect(try await web.waitForExit(within: 15) == 2)
        #expect(web.output.contains("SAFEWALK_TLS_KEY"))
        await broker.shutdown()
    }
}
