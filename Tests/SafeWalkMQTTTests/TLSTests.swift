import Foundation
import Logging
import SafeWalkMQTT
import Testing
import TestSupport

/// TLS to the broker, with certificates made for the test by openssl.
@Suite("MQTT over TLS")
struct TLSTests {
    /// A CA and a server certificate for `localhost`, in `directory`.
    static func makeCertificates(in directory: URL) throws {
        let openssl = try Executables.find("openssl")
        let steps = [
            ["req", "-x509", "-newkey", "rsa:2048", "-days", "1", "-nodes", "-keyout", "ca.key", "-out", "ca.crt",
             "-subj", "/CN=safewalk-test-ca"],
            ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"],
            ["x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-days", "1",
             "-out", "server.crt"],
        ]
        for arguments in steps {
            let process = Process()
            process.executableURL = openssl
            process.arguments = arguments
            process.currentDirectoryURL = directory
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw HarnessError.processFailed("openssl \(arguments[0])") }
        }
    }

    @Test func publishesAndReceivesOverTLSWithTheBrokersCA() async throws {
        let broker = try MosquittoBroker { port, directory in
            try Self.makeCertificates(in: directory)
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
