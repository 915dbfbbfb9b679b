import SafeWalkMQTT
import SafeWalkService
import Testing

@Suite struct FailoverSettingTests {
    @Test func theServiceConnectsToItsHostFirstThenToTheListedNodes() throws {
        let configuration = try ServiceConfiguration(
            service: .watchdog,
            environment: [
                "SAFEWALK_MQTT_HOST": "nats-1", "SAFEWALK_MQTT_PORT": "1883",
                "SAFEWALK_MQTT_FAILOVER": "nats-2:1883,nats-3:1883",
            ])
        #expect(configuration.mqtt.nodes.map(\.description) == ["nats-1:1883", "nats-2:1883", "nats-3:1883"])
        #expect(try ServiceConfiguration(service: .watchdog, environment: [:]).mqtt.nodes.count == 1)
    }

    @Test func theKeepAliveIsShortEnoughToLeaveASilentNodeWithinTwentySeconds() throws {
        #expect(try ServiceConfiguration(service: .notifier, environment: [:]).mqtt.keepAliveSeconds == 10)
        let set = try ServiceConfiguration(service: .notifier, environment: ["SAFEWALK_MQTT_KEEPALIVE": "45"])
        #expect(set.mqtt.keepAliveSeconds == 45)
        for refused in ["0", "1", "601", "ten"] {
            #expect(throws: ConfigurationError.self, "\(refused)") {
                try ServiceConfiguration(service: .notifier, environment: ["SAFEWALK_MQTT_KEEPALIVE": refused])
            }
        }
    }

    @Test func aMalformedListStopsTheServiceAtStartNamingTheSetting() {
        #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration(service: .watchdog, environment: ["SAFEWALK_MQTT_FAILOVER": "nats-2"])
        }
        do {
            _ = try ServiceConfiguration(service: .watchdog, environment: ["SAFEWALK_MQTT_FAILOVER": "nats-2:1883,"])
            Issue.record("a trailing comma was accepted")
        } catch {
            #expect("\(error)".contains("SAFEWALK_MQTT_FAILOVER"))
        }
    }
}
