import Dispatch
import Foundation
import Synchronization

/// Ctrl-C (or SIGTERM) must not leave a broker, five services, a Python server, a tmpfs mount or a
/// network namespace behind: every child, mount and namespace is registered here, and a signal
/// kills, unmounts and deletes them all.
enum Cleanup {
    private static let pids = Mutex<Set<pid_t>>([])
    private static let mounts = Mutex<[String]>([])
    private static let teardowns = Mutex<[(String, [String])]>([])
    /// Written once, by `install()` at the start of a command, before it starts any task.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    static func register(_ pid: pid_t) { _ = pids.withLock { $0.insert(pid) } }
    static func register(mount path: String) { mounts.withLock { $0.append(path) } }
    /// Commands that undo what a run set up outside its processes (``NodeNetwork``'s namespaces).
    static func register(teardown commands: [(String, [String])]) { teardowns.withLock { $0 += commands } }

    static func install() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                for pid in pids.withLock({ $0 }) { kill(pid, SIGKILL) }
                for path in mounts.withLock({ $0 }) { _ = try? Cluster.run("/bin/umount", ["-l", path]) }
                for (path, arguments) in teardowns.withLock({ $0 }) { _ = try? Cluster.run(path, arguments) }
                print("interrupted: children killed")
                exit(130)
            }
            source.resume()
            sources.append(source)
        }
    }
}
