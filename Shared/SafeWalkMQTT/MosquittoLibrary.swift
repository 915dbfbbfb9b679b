import CMosquitto
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `mosquitto_lib_init` must run once per process before any handle is made.
enum MosquittoLibrary {
    private static let initialised = Mutex(false)

    static func ensureInitialised() {
        initialised.withLock { done in
            guard !done else { return }
            mosquitto_lib_init()
            done = true
        }
    }

    static func message(for code: Int32) -> String {
        if code == MOSQ_ERR_ERRNO.rawValue {
            // libmosquitto may have reset errno already ("Success"), which helps no one.
            return errno == 0 ? "connection failed (system error)" : String(cString: strerror(errno))
        }
        return String(cString: mosquitto_strerror(code))
    }

    static func error(_ code: Int32, topic: String? = nil) -> MQTTError {
        switch code {
        case MOSQ_ERR_INVAL.rawValue, MOSQ_ERR_MALFORMED_UTF8.rawValue:
            if let topic { return .invalidTopic(topic) }
            return .library(code: code, message: message(for: code))
        case MOSQ_ERR_NO_CONN.rawValue: return .notConnected
        default: return .library(code: code, message: message(for: code))
        }
    }

    /// MQTT topic-filter matching, as the broker does it. Pure: needs no connection.
    static func topic(_ topic: String, matches filter: String) -> Bool {
        var result = false
        let rc = mosquitto_topic_matches_sub(filter, topic, &result)
        return rc == MOSQ_ERR_SUCCESS.rawValue && result
    }
}

/// Whether `topic` is delivered to a subscription on `filter` (`+` one level, `#` the rest).
public func mqttTopic(_ topic: String, matches filter: String) -> Bool {
    MosquittoLibrary.topic(topic, matches: filter)
}
