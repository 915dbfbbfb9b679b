import BenchSupport
import Foundation
import TestSupport

/// Runs processes under QEMU's user-mode emulator with the instruction-counting plugin of
/// `Benchmarks/instruction-count/insncount.c` and reads how many instructions each has executed.
/// Counts are instructions, not seconds: the same program on the same input executes the same
/// number whatever else the shared machine is doing. (Why QEMU and not valgrind's callgrind: the
/// plugin's comment and BENCHMARKS.md.)
struct InstructionCounter: Sendable {
    let directory: URL
    let qemu: String
    let plugin: URL

    /// Builds the plugin into `directory` with the system's C compiler.
    init(directory: URL) throws {
        self.directory = directory
        qemu = try Executables.find("qemu-x86_64", in: ["/usr/bin", "/usr/local/bin"]).path
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        plugin = directory.appendingPathComponent("libinsncount.so")
        let status = try Cluster.run(
            "/usr/bin/cc", ["-shared", "-fPIC", "-O2", "-o", plugin.path, Self.source.path, "-lpthread"])
        guard status == 0 else { throw BenchError.failed("could not build \(Self.source.path)") }
    }

    /// The plugin's source, found from this file's place in the repository.
    static var source: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("instruction-count/insncount.c")
    }

    /// The command that runs the program named `name` under QEMU, its count in `name.count`.
    func launcher(_ name: String) -> [String] {
        [qemu, "-plugin", "\(plugin.path),out=\(file(name).path)"]
    }

    func file(_ name: String) -> URL { directory.appendingPathComponent("\(name).count") }

    /// Instructions the program named `name` has executed so far (the plugin rewrites its file
    /// every 100 ms and at exit); nil before its first write.
    func instructions(_ name: String) -> Int? { InstructionCount.read(file(name).path) }
}
