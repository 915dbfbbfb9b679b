import Foundation
import Logging
import SafeWalkCore
import SafeWalkWebKit
import Testing

@testable import SafeWalkCLI

/// `safewalk user add NAME --operator`: the one way besides an admin at /ops to make an operator
/// of the monitoring desk, written straight into web's store.
@Suite struct OperatorCommandTests {
    @Test func theOptionsOfAnOperatorAreCheckedBeforeAnythingIsWritten() throws {
        #expect(
            try SafeWalkCommand.parseAsRoot(["user", "add", "olga", "--operator", "--email", "olga@example.org"])
                is UserAddCommand)
        for bad in [
            ["user", "add", "olga", "--operator"],  // no e-mail
            ["user", "add", "olga", "--admin", "--email", "olga@example.org"],  // --admin without --operator
            ["user", "add", "olga", "--operator", "--service"],
            ["user", "add", "olga", "--operator", "--email", "o@example.org", "--web", "http://127.0.0.1:1"],
            ["user", "add", "alice", "--email", "alice@example.org", "--data-dir", "/tmp"],
            ["user", "add", "_desk", "--operator", "--email", "o@example.org"],
        ] {
            #expect(throws: (any Error).self, "\(bad)") { try SafeWalkCommand.parseAsRoot(bad) }
        }
    }

    @Test func anOperatorIsWrittenToWebsStoreWithItsRoleAndNoWalkerCanTakeTheName() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("op-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let admin = try #require(
            try SafeWalkCommand.parseAsRoot([
                "user", "add", "ada", "--operator", "--admin", "--email", "ada@example.org", "--data-dir",
                directory.path,
            ]) as? UserAddCommand)
        try await admin.run()
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let database = try WebDatabase.open(directory: directory, logger: logger)
        let account = try #require(try await database.account(key: "ada"))
        #expect(account.role == .admin)
        #expect(account.state == .active)
        // The same name again (any case) is refused, and stays one row.
        let again = try #require(
            try SafeWalkCommand.parseAsRoot([
                "user", "add", "ADA", "--operator", "--email", "other@example.org", "--data-dir", directory.path,
            ]) as? UserAddCommand)
        await #expect(throws: CLIError.self) { try await again.run() }
        #expect(try await database.operators().map(\.username.rawValue) == ["ada"])
        #expect(try await database.memberships().isEmpty)  // no member of anyone's circle
    }
}
