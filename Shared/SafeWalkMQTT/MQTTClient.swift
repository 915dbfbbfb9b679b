import CMosquitto
import Foundation
import Logging
import Synchronization

/// An MQTT 3.1.1 client over libmosquitto: the only code in SafeWalk that touches its C API.
///
/// - Publishing at QoS 1 or 2 returns only once the broker acknowledged the message
///   (PUBACK / PUBCOMP). While the broker is unreachable such publishes are queued inside
///   libmosquitto and re-sent on reconnect, so the call simply waits: nothing acknowledged is lost,
///   and nothing unacknowledged is reported as sent. QoS 0 while offline throws `.notConnected`.
/// - Subscriptions accept wildcards and are delivered as an `AsyncSequence`
///   (`MQTTSubscription`). A consumer slower than the broker never loses a message and never
///   blocks the network thread; its backlog grows in memory instead (see `MessageBuffer`).
/// - The session is persistent by default (`cleanSession: false`, stable client id). After a
///   reconnect, filters are re-subscribed whenever the broker did not keep the session.
/// - Reconnects with exponential backoff forever; a refused CONNECT (bad credentials) is
///   reported to `connect()` as `.connectionRefused` instead of being retried silently.
/// - `shutdown()` disconnects cleanly, so the Last Will is *not* published.
public final class MQTTClient: MessageBus, @unchecked Sendable {
    // @unchecked: `handle` is only used through libmosquitto calls, which are thread-safe once
    // `mosquitto_loop_start` runs the network thread; all Swift state sits behind `state`.
    let handle: OpaquePointer
    let configuration: MQTTConfiguration
    let logger: Logger
    let state = Mutex(MQTTClientState())
    /// Keeps `self` alive while the network thread may call back into it.
    private let selfRetain = Mutex<Unmanaged<MQTTClient>?>(nil)
    /// Wakes the network thread from a reconnect's wait, at shutdown.
    let networkThreadWake = DispatchSemaphore(value: 0)
    /// Callbacks the network thread is inside now (0 or 1). While it is in one, libmosquitto
    /// leaves every packet published from another thread for the network thread to write, so a
    /// batch's cork cannot hold them (``publish(all:)``); tests wait for 0 before measuring that.
    let callbacksRunning = Atomic<Int>(0)
    /// Signalled once as the network thread ends.
    let networkThreadDone = DispatchSemaphore(value: 0)

    public init(configuration: MQTTConfiguration, logger: Logger) throws(MQTTError) {
        try configuration.validate()
        MosquittoLibrary.ensureInitialised()
        guard let handle = mosquitto_new(configuration.clientID, configuration.cleanSession, nil) else {
            throw .library(code: MOSQ_ERR_NOMEM.rawValue, message: "mosquitto_new failed")
        }
        self.handle = handle
        self.configuration = configuration
        var logger = logger
        logger[metadataKey: "mqtt.client"] = "\(configuration.clientID)"
        self.logger = logger
        // No cleanup on failure here: the object is fully initialised, so a throw releases it and
        // `deinit` destroys the handle. Destroying it here as well was a double free (found by
        // AddressSanitizer; it surfaced as random heap corruption in unrelated tests).
        try applyOptions()
    }

    deinit {
        mosquitto_destroy(handle)
    }

    /// Connects and waits for the broker's CONNACK. If the broker is not up yet this keeps
    /// retrying with backoff (cancel the task to give up). Throws `.connectionRefused` when the
    /// broker rejects the credentials or client id; the client is then shut down.
    public func connect() async throws {
        let start: Bool = state.withLock { state in
            guard state.phase == .idle else { return false }
            state.phase = .connecting
            return true
        }
        if start { try await startNetworkLoop() }
        do {
            try await waitUntilConnected()
        } catch let error as MQTTError {
            if case .connectionRefused = error { await shutdown() }
            throw error
        }
    }

    /// Suspends until the client is connected (returns at once if it is). Cancelling the waiting
    /// task ends the wait with `CancellationError` (the client goes on trying until
    /// ``shutdown()``): a broker that never answers must not hold a caller that gave up on it.
    public func waitUntilConnected() async throws {
        let ticket = state.withLock { state in
            defer { state.nextTicket += 1 }
            return state.nextTicket
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if let refusal = state.refusal { return .failure(refusal) }
                    switch state.phase {
                    case .connected: return .success(())
                    case .closed, .idle: return .failure(MQTTError.shutDown)
                    case .connecting:
                        // Checked under the lock: a cancellation that came before this line finds no
                        // waiter to end, so it is seen here instead.
                        if Task.isCancelled { return .failure(CancellationError()) }
                        state.connectWaiters[ticket] = continuation
                        return nil
                    }
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            state.withLock { $0.connectWaiters.removeValue(forKey: ticket) }?.resume(throwing: CancellationError())
        }
    }

    public var isConnected: Bool { state.withLock { $0.phase == .connected } }

    /// The node this client is connected to; nil while it is not.
    public var connectedNode: MQTTNode? {
        state.withLock { $0.phase == .connected ? $0.node : nil }
    }

    /// How often the client connected, and lost a connection, since it started.
    public var connectionCounts: (connects: Int, losses: Int) {
        state.withLock { ($0.connects, $0.connectionLosses) }
    }

    /// Makes the first connection, then hands the socket to libmosquitto's network thread.
    ///
    /// The first connection is retried here, with backoff and over every node, rather than left
    /// to the network thread: libmosquitto 2.0.11's loop never retries a connection that failed
    /// before it started, so a service started before its broker waited forever. Once
    /// connected, the network thread's reconnect (tested with broker restarts) takes over.
    private func startNetworkLoop() async throws {
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        installCallbacks()
        let nodes = configuration.nodes
        var delay = Double(configuration.reconnectDelayMin)
        var warned = false
        var connected: Int?
        while connected == nil {
            for index in nodes.indices {
                let node = nodes[index]
                state.withLock { $0.node = node }
                let rc = await blocking { _ in self.connect(to: node) }
                guard state.withLock({ $0.phase }) != .closed else {
                    mosquitto_disconnect(handle)
                    throw MQTTError.shutDown
                }
                if rc == MOSQ_ERR_SUCCESS.rawValue {
                    connected = index
                    break
                }
                // Broker not up yet (refused, unreachable, or its name not resolvable yet): retry.
                guard rc == MOSQ_ERR_ERRNO.rawValue || rc == MOSQ_ERR_EAI.rawValue || rc == MOSQ_ERR_NO_CONN.rawValue
                else {
                    state.withLock { $0.phase = .closed }
                    throw MosquittoLibrary.error(rc)
                }
                if !warned {
                    logger.warning(
                        "broker not reachable yet, retrying",
                        metadata: ["node": "\(node)", "error": "\(MosquittoLibrary.message(for: rc))"])
                    warned = true
                }
            }
            if connected != nil { break }
            try await Task.sleep(for: .seconds(delay))
            delay = min(delay * 2, Double(configuration.reconnectDelayMax))
        }
        // libmosquitto's network loop uses select(): on a descriptor at or above FD_SETSIZE its
        // loop ends at once (MOSQ_ERR_INVAL) and every later call would wait forever. Say so now.
        let socket = mosquitto_socket(handle)
        guard socket < Self.selectLimit else {
            mosquitto_disconnect(handle)
            state.withLock { $0.phase = .closed }
            throw MQTTError.invalidConfiguration(
                "the connection got file descriptor \(socket); libmosquitto serves only those below "
                    + "\(Self.selectLimit) (too many files open in this process)")
        }
        // Decided under the lock, so `shutdown` either sees the thread and joins it, or closed
        // the client first and no thread starts.
        let start = state.withLock { state in
            guard state.phase != .closed else { return false }
            state.networkThreadStarted = true
            return true
        }
        guard start else {
            mosquitto_disconnect(handle)
            throw MQTTError.shutDown
        }
        selfRetain.withLock { $0 = Unmanaged.passRetained(self) }
        startNetworkThread(connectedTo: connected ?? 0)
    }

    /// glibc's FD_SETSIZE, which libmosquitto's select() loop cannot go beyond.
    static let selectLimit: Int32 = 1024

    /// Runs a blocking libmosquitto call on a plain thread, off the cooperative pool. The thread
    /// captures `self` and reads `handle` there: the pointer never crosses threads on its own, so
    /// this class's one `@unchecked Sendable` covers it, and `self` outlives the call.
    private func blocking(_ call: @escaping @Sendable (OpaquePointer) -> Int32) async -> Int32 {
        await withCheckedContinuation { (done: CheckedContinuation<Int32, Never>) in
            Thread.detachNewThread { done.resume(returning: call(self.handle)) }
        }
    }

    /// Disconnects cleanly (no Last Will), stops the network thread, ends every subscription and
    /// fails every waiting call with `.shutDown`. Safe to call more than once.
    public func shutdown() async {
        let (wasRunning, threadStarted) = state.withLock { state in
            defer { state.phase = .closed }
            return (state.phase != .closed && state.phase != .idle, state.networkThreadStarted)
        }
        guard wasRunning else {
            failEverything()
            return
        }
        mosquitto_disconnect(handle)
        if threadStarted {
            // Joins the network thread once it has sent DISCONNECT (or, if it was waiting to
            // reconnect, once woken).
            networkThreadWake.signal()
            await joinNetworkThread()
        }
        failEverything()
        selfRetain.withLock {
            $0?.release(); $0 = nil
        }
        logger.debug("MQTT client shut down")
    }

    private func failEverything() {
        let (waiters, buffers) = state.withLock { state in
            let buffers = state.registrations.values.map(\.buffer)
            state.registrations = [:]
            return (state.drainAllWaiters(), buffers)
        }
        waiters.fail(MQTTError.shutDown)
        for buffer in buffers { buffer.finish() }
    }

    /// Simulates the process dying: the socket is closed under the broker's feet with no
    /// DISCONNECT, so the broker publishes the Last Will. For tests of Last Will handling only.
    /// The network thread must notice the loss itself before the client is stopped: stopping it
    /// from here while it handles the error (or cancelling it) corrupted memory in libmosquitto.
    func abandonConnectionForTesting() async {
        let losses = connectionCounts.losses
        let socket = mosquitto_socket(handle)
        if socket >= 0 { _ = Glibc.shutdown(socket, Int32(SHUT_RDWR)) }
        let deadline = ContinuousClock.now + .seconds(10)
        while connectionCounts.losses == losses, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        await shutdown()
    }
}
