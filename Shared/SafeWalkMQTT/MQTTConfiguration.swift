/// How to reach the broker and who to be there.
public struct MQTTConfiguration: Sendable {
    /// Client-side TLS. Paths are PEM files; `caFile` alone gives server authentication.
    public struct TLS: Sendable {
        public var caFile: String
        public var certificateFile: String?
        public var keyFile: String?
        /// Skips host name verification. Only for tests against self-signed certificates.
        public var allowInsecureHostname: Bool

        public init(
            caFile: String, certificateFile: String? = nil, keyFile: String? = nil,
            allowInsecureHostname: Bool = false
        ) {
            self.caFile = caFile
            self.certificateFile = certificateFile
            self.keyFile = keyFile
            self.allowInsecureHostname = allowInsecureHostname
        }
    }

    public var host: String
    public var port: Int
    /// Further nodes of the same clustered broker, tried in turn when `host`/`port` (or the
    /// node connected last) cannot be reached. Empty for a single broker.
    public var failover: [MQTTNode]
    /// With `failover` nodes, how long a node may take to accept a TCP connection before the next
    /// is tried (``NodeProbe``). Unused with a single node, which has nowhere else to go.
    public var connectTimeoutSeconds: Double = 5
    /// Stable across restarts so the broker can keep the session (subscriptions, queued QoS 1).
    public var clientID: String
    public var username: String?
    public var password: String?
    /// `false` (the default) asks the broker for a persistent session.
    public var cleanSession: Bool
    public var keepAliveSeconds: Int32
    public var tls: TLS?
    /// Published by the broker if this client vanishes without a clean disconnect.
    public var lastWill: MQTTMessage?
    /// Reconnect backoff: starts at `reconnectDelayMin`, doubles up to `reconnectDelayMax` seconds.
    public var reconnectDelayMin: UInt32
    public var reconnectDelayMax: UInt32
    /// Unacknowledged QoS 1/2 publishes on the wire at once; more wait in libmosquitto's queue.
    public var maxInflightMessages: UInt32
    /// Told about traffic and connection changes (metrics). Optional.
    public var observer: (any MQTTObserver)?

    public init(
        host: String = "127.0.0.1", port: Int = 1883, clientID: String,
        username: String? = nil, password: String? = nil, cleanSession: Bool = false,
        keepAliveSeconds: Int32 = 30, tls: TLS? = nil, lastWill: MQTTMessage? = nil,
        reconnectDelayMin: UInt32 = 1, reconnectDelayMax: UInt32 = 8, maxInflightMessages: UInt32 = 100,
        observer: (any MQTTObserver)? = nil, failover: [MQTTNode] = []
    ) {
        self.observer = observer
        self.failover = failover
        self.host = host
        self.port = port
        self.clientID = clientID
        self.username = username
        self.password = password
        self.cleanSession = cleanSession
        self.keepAliveSeconds = keepAliveSeconds
        self.tls = tls
        self.lastWill = lastWill
        self.reconnectDelayMin = reconnectDelayMin
        self.reconnectDelayMax = reconnectDelayMax
        self.maxInflightMessages = maxInflightMessages
    }

    /// Every node this client may connect to, its first choice first.
    public var nodes: [MQTTNode] { [MQTTNode(host: host, port: port)] + failover }

    func validate() throws(MQTTError) {
        for node in nodes {
            guard (1...65_535).contains(node.port) else {
                throw .invalidConfiguration("port \(node.port) is out of range")
            }
            guard !node.host.isEmpty else { throw .invalidConfiguration("host is empty") }
        }
        guard !clientID.isEmpty, clientID.utf8.count <= 65_535 else {
            throw .invalidConfiguration("client id must be 1...65535 bytes")
        }
        guard password == nil || username != nil else {
            throw .invalidConfiguration("a password needs a username")
        }
        guard reconnectDelayMin >= 1, reconnectDelayMax >= reconnectDelayMin else {
            throw .invalidConfiguration("reconnect delays must satisfy 1 <= min <= max")
        }
        guard connectTimeoutSeconds > 0, connectTimeoutSeconds.isFinite else {
            throw .invalidConfiguration("connectTimeoutSeconds must be greater than 0")
        }
        guard maxInflightMessages >= 1 else { throw .invalidConfiguration("maxInflightMessages must be >= 1") }
    }
}
