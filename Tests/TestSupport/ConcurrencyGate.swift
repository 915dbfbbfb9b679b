import Foundation

/// Keeps the test process under 1024 open file descriptors. libmosquitto's network loop uses
/// `select()`: a client whose socket gets a descriptor at or above `FD_SETSIZE` (1024) has its
/// loop end at once (`MOSQ_ERR_INVAL`; `MQTTClient.connect` now refuses such a socket), and with
/// every test starting at once this process went past 1024 (issue 19's suites tipped it: 60
/// short-lived commands with their pipes and pidfds, and whole stacks, at the same moment).
/// A place never given back is given up after `wait`, so a failing test slows the others down
/// instead of stopping them.
public actor ConcurrencyGate {
    /// Whole stacks (seven processes, their clients and logs) at once.
    public static let stacks = ConcurrencyGate(places: 4, wait: 120)
    /// Short-lived commands (`ChildProcess.run`: add-user.sh, mosquitto_ctrl), each with its pipes.
    public static let commands = ConcurrencyGate(places: 8, wait: 60)

    private let places: Int
    private let wait: Double
    private var taken = 0
    private var waiting: [(id: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
    private var nextID: UInt64 = 0

    public init(places: Int, wait: Double) {
        self.places = places
        self.wait = wait
    }

    /// Waits for a place (at most `wait` seconds, then goes ahead without one); true when it has one.
    public func enter() async -> Bool {
        if taken < places {
            taken += 1
            return true
        }
        nextID += 1
        let id = nextID
        let wait = wait
        let timeout = Task { [weak self] in
            try? await Task.sleep(for: .seconds(wait))
            await self?.giveUp(id)
        }
        await withCheckedContinuation { continuation in waiting.append((id, continuation)) }
        timeout.cancel()
        return true
    }

    /// Gives a place back, to the longest waiter if there is one.
    public func leave() {
        if waiting.isEmpty {
            taken = max(0, taken - 1)
        } else {
            waiting.removeFirst().continuation.resume()
        }
    }

    /// A waiter that waited too long goes ahead: it takes a place beyond the limit.
    private func giveUp(_ id: UInt64) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        taken += 1
        waiting.remove(at: index).continuation.resume()
    }
}

extension ConcurrencyGate {
    /// Tests that each hold a broker, an HTTP server, an SQLite file or a few of them. Swift
    /// Testing starts every test of the run at once, and the first second of a full run held 215
    /// temporary databases open together (about 2.5 descriptors each) beside hundreds of sockets:
    /// past 1024, and the next MQTT client could not connect. Suites that hold such things take
    /// ``Trait/holdsResources``, and at most this many of their tests run at a time.
    public static let resources = ConcurrencyGate(places: 24, wait: 120)
}
