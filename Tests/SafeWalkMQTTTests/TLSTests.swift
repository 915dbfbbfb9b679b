import Foundation
import Logging
import SafeWalkMQTT
import TestSupport
import Testing

/// TLS to the broker, with certificates made for the test by openssl.
@Suite("MQTT over TLS")
struct TLSTests {
    /// A CA and a server certificate for `localhost`, in `directory`.
    static func makeCertificates(in directory: URL) async throws {
        let openssl = try Executables.find("openssl")
        let steps = [
            [
                "req", "-x509", "-newkey", "rsa:2048", "-days", "1", "-nodes", "-keyout", "ca.key", "-out", "ca.crt",
                "-subj", "/CN=safewalk-test-ca",
            ],
            [
                "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj",
                "/CN=localhost",
            ],
            [
                "x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-days",
                "1",
                "-out", "server.crt",
            ],
        ]
        for arguments in steps {
            let (status, output) = try await ChildProcess.run(openssl, arguments, in: directory)
            guard status == 0 else { throw HarnessError.processFailed("openssl \(arguments[0]): \(output)") }
        }
    }

    @Test func publishesAndReceivesOverTLSWithTheBrokersCA() async throws {
        let certificates = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tls-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: certificates, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: certificates) }
        try await Self.makeCertificates(in: certificates)
        let broker = try MosquittoBroker { port, directory in
            for file in ["ca.crt", "server.crt", "server.key"] {
                try FileManager.default.copyItem(
                    at: certificates.appendingPathComponent(file),
                    to: directory.appendingPathComponent(file))
            }
            return """
                listener \(port) 127.0.0.1
                allow_anonymous true
                cafile \(directory.path)/ca.crt
                certfile \(directory.path)/server.crt
                keyfile \(directory.path)/server.key
                log_dest file \(directory.path)/mosquitto.log
                """
        }
        try await broker.start()
        var logger = Logger(label: "tls-test")
        logger.logLevel = .warning
        let tls = MQTTConfiguration.TLS(caFile: broker.directory.appendingPathComponent("ca.crt").path)
        let client = try MQTTClient(
            configuration: MQTTConfiguration(host: "localhost", port: broker.port, clientID: "tls-client", tls: tls),
            logger: logger)
        try await withTimeout(10, "TLS connect") { try await client.connect() }
        let messages = try await client.subscribe("tls/echo", qos: .atLeastOnce)
        try await client.publish("tls/echo", string: "encrypted")
        #expect(try await messages.first(1).map(\.string) == ["encrypted"])
        await client.shutdown()
        await broker.shutdown()
    }

    @Test func missingCAFileIsAConfigurationError() {
        let tls = MQTTConfiguration.TLS(caFile: "/nonexistent/ca.crt")
        #expect(throws: MQTTError.self) {
            _ = try MQTTClient(configuration: MQTTConfiguration(clientID: "x", tls: tls), logger: Logger(label: "t"))
        }
    }
}
