import Foundation

/// Finds the SafeWalk checkout (the directory holding `scripts/up.sh`) for `up` and `user add`.
enum RepositoryLocator {
    /// `explicit` (--repo or SAFEWALK_REPO) if given; otherwise the first directory, walking up from
    /// the working directory and then from the executable (`.build/.../debug/safewalk`), that has
    /// `scripts/up.sh`.
    static func find(
        explicit: String?, workingDirectory: String = FileManager.default.currentDirectoryPath,
        executable: String = CommandLine.arguments.first ?? ""
    ) throws(CLIError) -> URL {
        if let explicit {
            let url = URL(fileURLWithPath: explicit)
            guard isRepository(url) else { throw .repositoryNotFound(searched: [explicit]) }
            return url
        }
        let starts = [
            URL(fileURLWithPath: workingDirectory),
            URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent(),
        ]
        for start in starts {
            var directory = start.standardizedFileURL
            while true {
                if isRepository(directory) { return directory }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        throw .repositoryNotFound(searched: starts.map(\.path))
    }

    static func isRepository(_ directory: URL) -> Bool {
        FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("scripts/up.sh").path)
            || FileManager.default.fileExists(atPath: directory.appendingPathComponent("scripts/up.sh").path)
    }
}
