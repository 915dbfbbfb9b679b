import BrokerAdminKit
import Foundation
import HummingbirdBcrypt
import Logging
import SafeWalkBrokerPolicy
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import TestSupport
import Testing

@Suite("broker-admin on a NATS cluster: the users file, kept in SQLite, answered once the nodes loaded it")
struct NATSUserDirectoryTests {
    let bus = InMemoryMessageBus()
    let logger = Logger(label: "broker-admin-nats-test")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("safewalk-nats-\(UUID().uuidString)")
    let acl = try! BrokerACL(
        parsing: String(
            contentsOf: SecuredBroker.repositoryRoot.appendingPathComponent("mosquitto/acl"), encoding: .utf8))

    var usersFile: NATSUsersFile {
        NATSUsersFile(
            path: directory.appendingPathComponent("config/users.conf"),
            acknowledgements: directory.appendingPathComponent("loaded"))
    }

    func keeper(nodes: [String] = [], wait: Duration = .seconds(3)) throws -> NATSUserDirectory {
        try NATSUserDirectory(
            store: try NATSDirectoryStore.open(directory: directory.appendingPathComponent("data"), logger: logger),
            file: usersFile, acl: acl,
            settings: NATSAccountSettings(
                usersFile: usersFile.path, acknowledgements: usersFile.acknowledgements, nodes: nodes,
                reloadWait: wait, bcryptCost: 4),
            logger: logger)
    }

    func service(_ backend: NATSUserDirectory) async throws -> BrokerAdminService {
        BrokerAdminService(
            bus: bus, plugin: backend, sweeper: RetainedSweeper(bus: bus, quiet: .milliseconds(50)),
            reporter: RejectionReporter(service: .brokerAdmin, prefix: "safewalk", bus: bus, logger: logger),
            prefix: "safewalk", admin: "broker-admin", logger: logger,
            subscriptions: try await BrokerAdminService.subscribe(bus: bus, prefix: "safewalk"), now: { 1_760_000_000 })
    }

    func send(_ json: String, to service: BrokerAdminService) async throws {
        try await service.handleCommand(MQTTMessage(topic: "safewalk/_accounts/command", string: json))
    }

    var results: [AccountCommandResult] {
        bus.published(matching: "safewalk/_accounts/result").compactMap {
            try? SafeWalkJSON.decode(AccountCommandResult.self, from: $0.payload)
        }
    }

    var fileText: String { (try? String(contentsOf: usersFile.path, encoding: .utf8)) ?? "" }

    /// The password line of `user`'s entry in the users file.
    func hash(of user: String) -> String? {
        let lines = fileText.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let index = lines.firstIndex(of: "user: \"\(user)\""), index + 1 < lines.count else { return nil }
        let line = lines[index + 1]
        guard line.hasPrefix("password: \""), line.hasSuffix("\"") else { return nil }
        return String(line.dropFirst("password: \"".count).dropLast())
    }

    @Test func aSignUpIsInTheFileAsABcryptHashAndOutlivesARestart() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let service = try await service(try keeper())
        #expect(fileText.contains("user: \"watchdog\""), "the service users are there from the start")
        try await send(#"{"v":1,"id":"c1","op":"createWalker","user":"alice","password":"pw-alice-1!"}"#, to: service)
        #expect(results == [AccountCommandResult(id: "c1", ok: true)])
        let stored = try #require(hash(of: "alice"))
        #expect(stored.hasPrefix("$2b$04$"))
        #expect(Bcrypt.verify("pw-alice-1!", hash: stored))
        #expect(!fileText.contains("pw-alice-1!"))

        try await send(#"{"v":1,"id":"c2","op":"setPassword","user":"alice","password":"pw-alice-2!"}"#, to: service)
        #expect(try Bcrypt.verify("pw-alice-2!", hash: #require(hash(of: "alice"))))

        // Written again from SQLite alone, with the file gone: the same logins.
        let before = fileText
        try FileManager.default.removeItem(at: usersFile.path)
        _ = try keeper()
        #expect(fileText == before)
    }

    @Test func aDisabledWalkerLeavesTheFile() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let service = try await service(try keeper())
        try await send(#"{"v":1,"id":"c1","op":"createWalker","user":"alice","password":"pw-alice-1!"}"#, to: service)
        try await send(#"{"v":1,"id":"c2","op":"disable","user":"alice"}"#, to: service)
        #expect(hash(of: "alice") == nil)
        try await send(#"{"v":1,"id":"c3","op":"enable","user":"alice"}"#, to: service)
        #expect(hash(of: "alice") != nil)
        #expect(results.map(\.ok) == [true, true, true])
    }

    @Test func theAnswerWaitsForEveryNodesAcknowledgement() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let service = try await service(try keeper(nodes: ["nats1", "nats2"], wait: .seconds(30)))
        // Two nodes' reloaders: each acknowledges the digest of whatever file is there.
        let file = usersFile
        let nodes = Task {
            try FileManager.default.createDirectory(at: file.acknowledgements, withIntermediateDirectories: true)
            while !Task.isCancelled {
                if let text = try? String(contentsOf: file.path, encoding: .utf8) {
                    for node in ["nats1", "nats2"] {
                        try TokenText.sha256Hex(text).write(
                            to: file.acknowledgements.appendingPathComponent("\(node).loaded"), atomically: true,
                            encoding: .utf8)
                    }
                }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        defer { nodes.cancel() }
        try await send(#"{"v":1,"id":"c1","op":"createWalker","user":"alice","password":"pw-alice-1!"}"#, to: service)
        #expect(results == [AccountCommandResult(id: "c1", ok: true)])
        for node in ["nats1", "nats2"] { #expect(usersFile.loadedDigest(of: node) == TokenText.sha256Hex(fileText)) }
    }

    /// Two sign-ups within one look of a node's reloader: the node loads only the second file,
    /// which holds both logins, and both are answered.
    @Test func aNodeThatSkipsAVersionStillAnswersTheBatchBefore() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let service = try await service(try keeper(nodes: ["nats1"], wait: .seconds(10)))
        let file = usersFile
        let node = Task {
            try FileManager.default.createDirectory(at: file.acknowledgements, withIntermediateDirectories: true)
            while !Task.isCancelled {
                if let text = try? String(contentsOf: file.path, encoding: .utf8),
                    text.contains("user: \"alice\""), text.contains("user: \"bob\"")
                {
                    try TokenText.sha256Hex(text).write(
                        to: file.acknowledgements.appendingPathComponent("nats1.loaded"), atomically: true,
                        encoding: .utf8)
                    return
                }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        defer { node.cancel() }
        async let alice: Void = send(
            #"{"v":1,"id":"c1","op":"createWalker","user":"alice","password":"pw-alice-1!"}"#, to: service)
        async let bob: Void = send(
            #"{"v":1,"id":"c2","op":"createWalker","user":"bob","password":"pw-bob-1!"}"#, to: service)
        _ = try await (alice, bob)
        #expect(Set(results.map(\.id)) == ["c1", "c2"])
        #expect(results.filter { !$0.ok }.isEmpty, "\(results)")
    }

    @Test func noNodeAcknowledgingIsABrokerErrorAndTheLoginStaysForTheNextReload() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let service = try await service(try keeper(nodes: ["nats1"], wait: .milliseconds(50)))
        try FileManager.default.createDirectory(at: usersFile.acknowledgements, withIntermediateDirectories: true)
        try "an older digest\n".write(
            to: usersFile.acknowledgements.appendingPathComponent("nats1.loaded"), atomically: true, encoding: .utf8)
        try await send(#"{"v":1,"id":"c1","op":"createWalker","user":"alice","password":"pw-alice-1!"}"#, to: service)
        #expect(results == [AccountCommandResult(id: "c1", ok: false, error: .brokerError)])
        #expect(hash(of: "alice") != nil)
    }

    /// The reloader compares `sha256sum`'s output with this digest: the two must agree.
    @Test func theFilesDigestIsWhatSha256sumPrints() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let digest = try usersFile.write("authorization {\n  users = [ ]\n}\n")
        let sha256sum = Process()
        sha256sum.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        sha256sum.arguments = [usersFile.path.path]
        let output = Pipe()
        sha256sum.standardOutput = output
        try sha256sum.run()
        sha256sum.waitUntilExit()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(printed.split(separator: " ").first.map(String.init) == digest)
        let attributes = try FileManager.default.attributesOfItem(atPath: usersFile.path.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640)
    }
}
