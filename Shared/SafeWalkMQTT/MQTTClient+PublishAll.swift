import CMosquitto
import Foundation

extension MQTTClient {
    /// Publishes a batch: every message is handed to libmosquitto at once, written to the socket
    /// together, and the caller is woken once, when the last of them is acknowledged (QoS 1/2) or
    /// has failed. Returns each message's error, nil where it was delivered as its QoS promises.
    ///
    /// Why not a task per ``publish(_:)``: libmosquitto writes each packet from the publishing
    /// thread with its own `write` (this client runs its own network loop), and with
    /// `TCP_NODELAY` each became a TCP segment of its own, sent and received through the whole
    /// loopback stack; each acknowledgement then woke its own task. location-ingest's retained
    /// positions spent a quarter of its CPU there at 20,000 walkers (BENCHMARKS.md).
    ///
    /// Offline, the messages wait for the next connect as ``publish(_:)``'s do. Cancelling the
    /// caller settles every message not yet acknowledged with `CancellationError`, but does not
    /// take back what was handed over.
    public func publish(all messages: [MQTTMessage]) async -> [(any Error)?] {
        guard messages.count > 1 else {
            guard let message = messages.first else { return [] }
            do {
                try await publish(message)
                return [nil]
            } catch {
                return [error]
            }
        }
        // Beyond the in-flight window libmosquitto would queue the rest and send each on its own
        // as an acknowledgement frees a place (uncorked, from the network thread): one window
        // at a time instead.
        let window = max(1, Int(configuration.maxInflightMessages))
        var outcomes: [(any Error)?] = []
        outcomes.reserveCapacity(messages.count)
        for start in stride(from: 0, to: messages.count, by: window) {
            outcomes += await publish(window: Array(messages[start..<min(start + window, messages.count)]))
        }
        if let observer = configuration.observer {
            for (message, outcome) in zip(messages, outcomes) where outcome == nil {
                observer.didPublish(topic: message.topic, qos: message.qos)
            }
        }
        return outcomes
    }

    /// One window of a batch: written corked, then every acknowledgement awaited.
    private func publish(window messages: [MQTTMessage]) async -> [(any Error)?] {
        let batch = PublishBatch(count: messages.count)
        let tickets = PublishTickets()
        return await withTaskCancellationHandler {
            withCorkedSocket {
                for (index, message) in messages.enumerated() {
                    if let failure = send(message, as: .batch(batch, index: index), tickets: tickets) {
                        batch.settle(index, failure)
                    }
                }
            }
            return await batch.outcomes()
        } onCancel: {
            // Messages not handed over yet are settled as they come (``send`` checks).
            failWaiting(tickets, with: CancellationError())
        }
    }

    /// Hands one message of a batch over; the error if it failed at once. QoS 0 is written and
    /// settled here; QoS 1/2 is settled by its acknowledgement (``PublishWaiter``).
    private func send(_ message: MQTTMessage, as waiter: PublishWaiter, tickets: PublishTickets) -> (any Error)? {
        if Task.isCancelled { return CancellationError() }
        guard message.qos == .atMostOnce else { return register(message, as: waiter, tickets: tickets) }
        if let failure = sendAtMostOnce(message) { return failure }
        waiter.succeed()
        return nil
    }

    /// The connection's socket, -1 while there is none (tests read its TCP counters).
    var socketDescriptor: Int32 { mosquitto_socket(handle) }

    /// Runs `body` with the socket corked (`TCP_CORK`): the packets it writes wait in the kernel
    /// and leave, when it ends, in as few full segments as they fill. The cork is taken out
    /// whatever happens; the kernel itself sends corked data after 200 ms at the latest.
    /// Writes made meanwhile by the network thread (acknowledgements, pings) wait with them, for
    /// as long as `body` runs. A reconnect between the two calls at worst corks and uncorks a
    /// socket that has just been closed, or the one that replaced it, for that moment.
    ///
    /// Best effort: while the network thread is inside one of our callbacks (handing over a
    /// message, resuming an acknowledged publish), libmosquitto does not write from the
    /// publishing thread but leaves the packets to the network thread, which may write them
    /// after the cork is out, one segment each as before.
    func withCorkedSocket<T>(_ body: () -> T) -> T {
        let socket = socketDescriptor
        guard socket >= 0 else { return body() }
        var on: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_CORK, &on, socklen_t(MemoryLayout<Int32>.size))
        defer {
            var off: Int32 = 0
            setsockopt(socket, Int32(IPPROTO_TCP), TCP_CORK, &off, socklen_t(MemoryLayout<Int32>.size))
        }
        return body()
    }
}
