import CMosquitto
import Foundation

/// The network thread: libmosquitto's loop, run on a thread of ours rather than
/// `mosquitto_loop_start`'s, so that a lost connection can be made again to another node.
///
/// libmosquitto's own thread (`mosquitto_loop_forever`) reconnects only ever to the host of the
/// first connect, and says nothing about a reconnect that failed: a service whose node of a
/// clustered broker died stayed offline, retrying the dead node, until that node came back
/// (docs/SCALING.md, "A service follows one node"). Here each failed round of reconnects tries
/// every node in `MQTTNode.attemptOrder` before waiting, with the same doubling backoff.
extension MQTTClient {
    /// Starts the thread once the first connection (to `nodes[node]`) is made.
    func startNetworkThread(connectedTo node: Int) {
        let thread = Thread { [self] in
            runNetworkLoop(connectedTo: node)
            networkThreadDone.signal()
        }
        thread.name = "mqtt network"
        thread.start()
    }

    /// Waits for the network thread to end (after `shutdown` disconnected and woke it).
    func joinNetworkThread() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread { [self] in
                networkThreadDone.wait()
                done.resume()
            }
        }
    }

    private var isClosing: Bool { state.withLock { $0.phase == .closed } }

    private func runNetworkLoop(connectedTo first: Int) {
        let nodes = configuration.nodes
        // As libmosquitto's own thread does: sleep in select() for up to the keep-alive; a publish
        // from another thread wakes it through libmosquitto's socket pair.
        let timeout = Int32(configuration.keepAliveSeconds) * 1000
        var current = first
        while true {
            var rc: Int32
            repeat { rc = mosquitto_loop(handle, timeout, 1) } while rc == MOSQ_ERR_SUCCESS.rawValue
            if isClosing { return }
            if Self.endsTheLoop(rc) {
                // What mosquitto_loop_forever gave up on (a protocol or TLS failure, say):
                // reconnecting would only fail the same way.
                logger.critical(
                    "MQTT network loop stopped", metadata: ["error": "\(MosquittoLibrary.message(for: rc))"])
                return
            }
            guard let next = reconnect(nodes, after: current) else { return }
            current = next
        }
    }

    /// Connects again, trying every node in turn before each wait; the node connected, or nil
    /// once the client is shutting down.
    private func reconnect(_ nodes: [MQTTNode], after current: Int) -> Int? {
        var delay = Double(configuration.reconnectDelayMin)
        while true {
            // Woken early only by `shutdown`.
            if networkThreadWake.wait(timeout: .now() + delay) == .success || isClosing { return nil }
            for index in MQTTNode.attemptOrder(count: nodes.count, after: current) {
                let node = nodes[index]
                let rc = connect(to: node)
                if isClosing { return nil }
                if rc == MOSQ_ERR_SUCCESS.rawValue {
                    if index != current { noteMoved(to: node) }
                    state.withLock { $0.node = node }
                    return index
                }
                logger.debug(
                    "broker node not reachable",
                    metadata: ["node": "\(node)", "error": "\(MosquittoLibrary.message(for: rc))"])
            }
            delay = min(delay * 2, Double(configuration.reconnectDelayMax))
        }
    }

    /// `mosquitto_connect` to `node` (blocking), after a ``NodeProbe`` when there are other nodes
    /// to go to: a node that does not accept TCP within `connectTimeoutSeconds` counts as down.
    func connect(to node: MQTTNode) -> Int32 {
        if !configuration.failover.isEmpty, !NodeProbe.accepts(node, within: configuration.connectTimeoutSeconds) {
            return MOSQ_ERR_NO_CONN.rawValue
        }
        return mosquitto_connect(handle, node.host, Int32(node.port), configuration.keepAliveSeconds)
    }

    private func noteMoved(to node: MQTTNode) {
        logger.warning("moving to another broker node", metadata: ["node": "\(node)"])
        configuration.observer?.didMoveNode()
    }

    /// The return codes on which `mosquitto_loop_forever` (libmosquitto 2.0.11, lib/loop.c)
    /// ends its loop instead of reconnecting.
    static func endsTheLoop(_ rc: Int32) -> Bool {
        let fatal: [mosq_err_t] = [
            MOSQ_ERR_NOMEM, MOSQ_ERR_PROTOCOL, MOSQ_ERR_INVAL, MOSQ_ERR_NOT_FOUND, MOSQ_ERR_TLS,
            MOSQ_ERR_PAYLOAD_SIZE, MOSQ_ERR_NOT_SUPPORTED, MOSQ_ERR_AUTH, MOSQ_ERR_ACL_DENIED,
            MOSQ_ERR_UNKNOWN, MOSQ_ERR_EAI, MOSQ_ERR_PROXY,
        ]
        return fatal.contains { $0.rawValue == rc }
    }
}
