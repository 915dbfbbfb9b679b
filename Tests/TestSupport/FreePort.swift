import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Network helpers for tests that start real servers on loopback.
public enum Loopback {
    /// A TCP port on 127.0.0.1 that nothing uses right now. Picked below Linux's ephemeral range
    /// (32768+), where outgoing client sockets of parallel tests would otherwise take it between
    /// this check and the server's bind. Never one this process handed out in the last
    /// ``reuseAfter`` (``claim(_:)``).
    public static func freePort() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<32_000)
            if claim(port) && canBind(port) { return port }
        }
        throw HarnessError.system("no free port in 20000..<32000", EADDRINUSE)
    }

    /// How long a port handed out is not handed out again by this process.
    static let reuseAfter: Duration = .seconds(600)

    /// When each port was last handed out (or tried).
    private static let handedOut = Mutex<[Int: ContinuousClock.Instant]>([:])

    /// Takes `port` unless this process handed it out lately. Nothing holds a port between
    /// ``freePort()`` and the server's bind, which under load can take seconds, and the tests of
    /// one run all share this process: two stacks starting at once could each be given the same
    /// port for their broker. The second's mosquitto then failed to bind, but the first broker
    /// already answered on that port, so the second stack ran on the first one's broker (a CI
    /// run's account-deletion and desk tests did, and both failed).
    static func claim(_ port: Int) -> Bool {
        handedOut.withLock { ports in
            let now = ContinuousClock.now
            if let at = ports[port], now - at < reuseAfter { return false }
            if ports.count >= 4_096 { ports = ports.filter { now - $0.value < reuseAfter } }
            ports[port] = now
            return true
        }
    }

    /// Runs `start`, which picks a port with ``freePort()`` and starts a server on it, again
    /// (a fresh port each time, up to five tries) while it fails with
    /// `HarnessError.processFailed` saying "Address already in use": a port is free when picked,
    /// but another process may bind it before the server does.
    public static func retryingTakenPort<Server>(
        _ what: String, _ start: () async throws -> Server
    ) async throws -> Server {
        for attempt in 1...5 {
            do {
                return try await start()
            } catch HarnessError.processFailed(let why) where why.contains("Address already in use") && attempt < 5 {
                continue
            }
        }
        throw HarnessError.timedOut("a free port for \(what)")
    }

    /// `count` free ports, all different. ``freePort()`` alone can return a port it returned a
    /// moment ago, since nothing holds it yet: three NATS nodes once got the same port for one's
    /// MQTT listener and another's routes, and the first to bind left the other dead.
    /// None of them is in `taken` either (a broker's port, say, that is bound already but may be
    /// closed and reused by a restart).
    public static func freePorts(_ count: Int, avoiding taken: some Sequence<Int> = []) throws -> [Int] {
        var ports: [Int] = []
        let taken = Set(taken)
        while ports.count < count {
            let port = try freePort()
            if !ports.contains(port) && !taken.contains(port) { ports.append(port) }
        }
        return ports
    }

    static func canBind(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    public static func isAccepting(port: Int) -> Bool {
        guard let fd = try? connectedSocket(port: port) else { return false }
        close(fd)
        return true
    }

    /// A TCP socket connected to 127.0.0.1:`port`, for tests that speak raw HTTP; the caller
    /// closes it.
    public static func connectedSocket(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError.system("socket", errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let failure = errno
            close(fd)
            throw HarnessError.system("connect to 127.0.0.1:\(port)", failure)
        }
        return fd
    }
}

public enum HarnessError: Error, CustomStringConvertible {
    case system(String, Int32)
    case timedOut(String)
    case notFound(String)
    case processFailed(String)

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .timedOut(let what): "timed out waiting for \(what)"
        case .notFound(let what): "not found: \(what)"
        case .processFailed(let what): "process failed: \(what)"
        }
    }
}
