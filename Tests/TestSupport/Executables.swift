import Foundation

public enum Executables {
    /// The first executable called `name` in `directories` or on PATH.
    public static func find(_ name: String, in directories: [String] = []) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in directories + path.split(separator: ":").map(String.init) {
            let candidate = URL(fileURLWithPath: directory).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw HarnessError.notFound("\(name) is not on PATH (.ci/run installs what the tests need)")
    }

    /// Where SwiftPM put this build's products: the test bundle sits beside the executables.
    public static var productsDirectory: URL {
        let me = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
        var directory = me.deletingLastPathComponent()
        // On Linux the test runner is `<products>/<Package>PackageTests.xctest`.
        while directory.path != "/" && directory.pathExtension == "xctest" {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }

    /// A service executable built by this package (`swift build` builds all five).
    public static func product(_ name: String) throws -> URL {
        let url = productsDirectory.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw HarnessError.notFound("\(url.path): run `swift build` first")
        }
        return url
    }
}
