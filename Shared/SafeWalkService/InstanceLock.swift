import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One running instance per service data directory: `{SAFEWALK_DATA_DIR}/{service}.lock`, held
/// with `flock(2)` for the life of the process.
///
/// Two processes on one SQLite file and one MQTT client id would take the broker session from
/// each other at every reconnect, and each would act on watches the other is changing. The kernel
/// drops the lock when its holder exits, however it exits (SIGKILL included), so a standby
/// (``ServiceConfiguration/standby``) that waits for it takes over with the same file and the
/// same persistent session: whatever waited in the session while nobody held it is delivered to
/// the new holder (docs/SCALING.md, "A standby takes over").
public final class InstanceLock: Sendable {
    public let path: String
    private let descriptor: Int32

    /// Another process holds the lock; `holder` is the process id it wrote, when readable.
    public struct Held: Error, CustomStringConvertible, Sendable {
        public var path: String
        public var holder: Int32?
        public var description: String {
            "another instance holds \(path)" + (holder.map { " (pid \($0))" } ?? "")
                + "; stop it, or start this one with SAFEWALK_STANDBY=true to take over when it exits"
        }
    }

    public struct Failed: Error, CustomStringConvertible, Sendable {
        public var path: String
        public var errno: Int32
        public var description: String { "cannot lock \(path): \(String(cString: strerror(errno)))" }
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    public static func path(in directory: URL, service: String) -> String {
        directory.appendingPathComponent("\(service).lock").path
    }

    /// Takes the lock now, or throws ``Held`` naming the holder.
    public static func acquire(path: String) throws -> InstanceLock {
        let fd = try open(path)
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let error = errno
            defer { close(fd) }
            if error == EWOULDBLOCK { throw Held(path: path, holder: holderPID(fd)) }
            throw Failed(path: path, errno: error)
        }
        return InstanceLock(path: path, descriptor: fd).recordingHolder()
    }

    /// Waits until the lock is free, then takes it. `flock` blocks a thread of its own, never one
    /// of the concurrency pool's; a standby that is stopped meanwhile simply exits, as it holds
    /// nothing.
    public static func waitToAcquire(path: String) async throws -> InstanceLock {
        let fd = try open(path)
        let result: Int32 = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var result: Int32
                repeat { result = flock(fd, LOCK_EX) == 0 ? 0 : errno } while result == EINTR
                continuation.resume(returning: result)
            }
        }
        guard result == 0 else {
            close(fd)
            throw Failed(path: path, errno: result)
        }
        return InstanceLock(path: path, descriptor: fd).recordingHolder()
    }

    /// The holder's pid in the file, for the message a second instance prints.
    private func recordingHolder() -> InstanceLock {
        let text = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
        return self
    }

    private static func open(_ path: String) throws -> Int32 {
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failed(path: path, errno: errno) }
        return fd
    }

    private static func holderPID(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self)
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Releases the lock (the kernel does the same when the process exits).
    deinit { close(descriptor) }
}
