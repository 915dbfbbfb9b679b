import Foundation
import SafeWalkCore

/// Where phones reach the broker from outside: `SAFEWALK_PUBLIC_MQTT_HOST`, `_PORT` (8883),
/// `_TLS` (true).
public struct PublicBroker: Hashable, Sendable {
    public var host: String
    public var port: Int
    public var tls: Bool

    public init(host: String, port: Int = 8883, tls: Bool = true) {
        self.host = host
        self.port = port
        self.tls = tls
    }
}

/// The OwnTracks app's `.otrc` remote configuration (owntracks.org/booklet/features/remoteconfig;
/// keys from owntracks.org/booklet/tech/json, `_type=configuration`): MQTT mode, the public
/// broker, the walker's device login, and topics that match what that login may do.
public struct OwnTracksConfiguration: Codable, Hashable, Sendable {
    public var type = "configuration"
    /// 0: private MQTT (3 would be HTTP).
    public var mode = 0
    public var host: String
    public var port: Int
    public var tls: Bool
    public var auth = true
    /// `{w}.owntracks`: the device's own login, never the account's.
    public var username: String
    public var password: String
    public var deviceId: String
    /// Two characters the app shows for the walker.
    public var tid: String
    public var clientId: String
    /// `owntracks/{w}/%d`: the app replaces `%d` with `deviceId`. The walker id is written out,
    /// not `%u`, because `%u` would be the device login `{w}.owntracks`, and location-ingest reads
    /// the walker from the topic.
    public var pubTopicBase: String
    /// Only the device's own command topic, the one subscription its login is allowed.
    public var sub = true
    public var subTopic: String
    public var cmd = true
    /// MQTT 3.1.1, so a refused subscription is reported rather than silently granted.
    public var mqttProtocolLevel = 4
    /// Seconds: the broker publishes the app's Last Will 1.5 × this after the phone goes silent,
    /// which the watchdog reads as the tracker going offline. The app's default is much longer.
    public var keepalive = 60

    enum CodingKeys: String, CodingKey {
        case type = "_type"
        case mode, host, port, tls, auth, username, password, deviceId, tid, clientId, pubTopicBase, sub, subTopic
        case cmd, mqttProtocolLevel, keepalive
    }

    public static let deviceID = "phone"

    public init(walker: WalkerID, devicePassword: String, broker: PublicBroker) {
        host = broker.host
        port = broker.port
        tls = broker.tls
        username = AccountCommand.deviceUsername(for: walker)
        password = devicePassword
        deviceId = Self.deviceID
        tid = String(walker.rawValue.prefix(2))
        clientId = "owntracks-\(walker.rawValue)"
        pubTopicBase = "owntracks/\(walker.rawValue)/%d"
        subTopic = "owntracks/\(walker.rawValue)/\(Self.deviceID)/cmd"
    }

    /// `owntracks:///config?inline=<base64 of the JSON>`: opening it on the phone imports the
    /// configuration. The base64 is percent-encoded (`+`, `/`, `=`), so no URL parser reads a `+`
    /// as a space.
    public func link() throws -> String {
        let base64 = try SafeWalkJSON.encode(self).base64EncodedString()
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let encoded = base64.addingPercentEncoding(withAllowedCharacters: allowed) ?? base64
        return "owntracks:///config?inline=\(encoded)"
    }
}

/// The body of `GET /v1/accounts/{user}/owntracks`.
public struct OwnTracksSetup: Codable, Hashable, Sendable {
    public var config: OwnTracksConfiguration
    public var link: String
}
