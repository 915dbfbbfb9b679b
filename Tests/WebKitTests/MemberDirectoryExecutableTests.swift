import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkWebKit
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `web` executable publishes the member directory at its start, from its own
/// database: active accounts retained, an unfinished sign-up's record cleared.
@Suite(.serialized, .holdsResources) struct MemberDirectoryExecutableTests {
    @Test func theExecutablesStartRetainsEveryActiveAccountAndClearsAnUnfinishedSignUp() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent(
            "web-members-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: data) }
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let database = try WebDatabase.open(directory: data, logger: Logger(label: "test"))
        let hash = PasswordHasher(rounds: 1_000).hash("walk-safe-1")
        let created = Date(timeIntervalSince1970: 1_760_000_000)
        for name in ["alice", "bob", "dave"] {
            let form = try SignUpForm(username: name, email: "\(name)@example.org", password: "walk-safe-1")
            _ = try await database.insertPending(form, hash: hash, at: created)
            if name != "dave" { try await database.setState(.active, key: name) }
        }
        let broker = try await MosquittoBroker.start()
        // dave's record went out before his sign-up was cut short.
        let reader = try await broker.client()
        let dave = Member(user: WalkerID(validating: "dave")!, since: 1_760_000_000)
        try await reader.publish("safewalk/_members/dave", payload: try SafeWalkJSON.encode(dave), retain: true)
        let records = try await reader.subscribe("safewalk/_members/+", qos: .atLeastOnce)
        let web = try ServiceProcess.start(
            Web.name, broker: broker, environment: ["SAFEWALK_HTTP_PORT": "\(try Loopback.freePort())"],
            dataDirectory: data)
        // dave's retained record, then alice's and bob's and dave's clear, in any order.
        let seen = try await records.first(4, within: 20)
        let published = Dictionary(
            seen.filter { !$0.payload.isEmpty }.map {
                ($0.topic, try? SafeWalkJSON.decode(Member.self, from: $0.payload))
            },
            uniquingKeysWith: { $1 })
        #expect(
            published["safewalk/_members/alice"] == Member(user: WalkerID(validating: "alice")!, since: 1_760_000_000))
        #expect(published["safewalk/_members/bob"] == Member(user: WalkerID(validating: "bob")!, since: 1_760_000_000))
        #expect(seen.last { $0.topic == "safewalk/_members/dave" }?.payload.isEmpty == true)
        web.signal(SIGTERM)
        #expect(try await web.waitForExit(within: 15) == 0)
        await reader.shutdown()
        await broker.shutdown()
    }
}
