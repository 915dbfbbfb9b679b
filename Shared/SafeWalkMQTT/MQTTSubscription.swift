/// The messages matching one subscription filter, in the order the broker delivered them.
///
/// One consumer only: iterate it once (or its `batches` once, not both). Iteration ends when
/// the client shuts down, the task is cancelled, or `cancel()` is called. The broker keeps the
/// filter in the persistent session either way (see `MQTTClient.unsubscribe(_:)`). See `MessageBuffer` for what happens when the consumer is slower than the broker:
/// nothing is dropped and the network thread never blocks.
public struct MQTTSubscription: AsyncSequence, Sendable {
    public typealias Element = MQTTMessage
    public typealias Failure = Never

    public let filter: String
    let buffer: MessageBuffer

    init(filter: String, buffer: MessageBuffer) {
        self.filter = filter
        self.buffer = buffer
    }

    /// Stops delivery and ends iteration.
    public func cancel() { buffer.finish() }

    /// From now on, a message whose topic `admits` refuses is dropped on arrival, on the network
    /// thread, instead of waking the consumer to be dropped there: for a consumer that reads a
    /// wildcard but wants few of its topics (contacts-store reads every position for the few
    /// walkers someone may see; issue 22 measured that wake-up as most of what such a message
    /// cost). `admits` must be cheap and thread-safe. Messages already waiting are not filtered.
    /// At QoS 1 the broker has its acknowledgement either way, as for a message the consumer drops.
    public func admitOnly(_ admits: @escaping @Sendable (String) -> Bool) { buffer.admit(only: admits) }

    /// The deepest backlog this subscription has had, for operators and benchmarks.
    public var highWaterMark: Int { buffer.highWaterMark }

    /// Everything that arrived since the last wake-up, as one array: for consumers that do their
    /// work in batches (one SQLite transaction per batch, say).
    public var batches: Batches { Batches(buffer: buffer) }

    public func makeAsyncIterator() -> Iterator { Iterator(buffer: buffer) }

    public struct Iterator: AsyncIteratorProtocol {
        let buffer: MessageBuffer

        public mutating func next() async -> MQTTMessage? { await buffer.next() }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> MQTTMessage? {
            await buffer.next()
        }
    }

    public struct Batches: AsyncSequence, Sendable {
        public typealias Element = [MQTTMessage]
        public typealias Failure = Never
        let buffer: MessageBuffer

        public func makeAsyncIterator() -> Iterator { Iterator(buffer: buffer) }

        public struct Iterator: AsyncIteratorProtocol {
            let buffer: MessageBuffer
            public mutating func next() async -> [MQTTMessage]? { await buffer.nextBatch() }
            public mutating func next(isolation actor: isolated (any Actor)?) async -> [MQTTMessage]? {
                await buffer.nextBatch()
            }
        }
    }
}
