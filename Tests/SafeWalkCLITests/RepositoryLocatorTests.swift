import Foundation
import Testing

@testable import SafeWalkCLI

@Suite struct RepositoryLocatorTests {
    @Test func findsTheCheckoutFromASubdirectoryOrFailsNamingWhereItLooked() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cli-repo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let deep = root.appendingPathComponent("Services/watchdog/Kit")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("scripts"), withIntermediateDirectories: true)
        try "#!/bin/bash\n".write(to: root.appendingPathComponent("scripts/up.sh"), atomically: true, encoding: .utf8)

        #expect(
            try RepositoryLocator.find(explicit: nil, workingDirectory: deep.path, executable: "/nonexistent/safewalk")
                .path
                == root.standardizedFileURL.path)
        #expect(
            try RepositoryLocator.find(explicit: root.path, workingDirectory: "/", executable: "").path == root.path)
        #expect(throws: CLIError.repositoryNotFound(searched: [deep.path])) {
            try RepositoryLocator.find(explicit: deep.path, workingDirectory: "/", executable: "")
        }
        #expect(throws: CLIError.self) {
            try RepositoryLocator.find(explicit: nil, workingDirectory: "/proc", executable: "/proc/safewalk")
        }
    }
}
