import SafeWalkCore
import SafeWalkService
import Testing

/// Each instance of a partitioned service reports for itself: N instances on one retained status
/// would overwrite each other's, and one's Last Will would say `offline` while the rest run.
@Suite struct InstanceStatusTests {
    @Test func aPartitionedInstanceHasItsOwnStatusAndLastWill() throws {
        let second = try ServiceConfiguration(
            service: .watchdog, environment: ["SAFEWALK_PARTITIONS": "3", "SAFEWALK_PARTITION": "1"])
        #expect(second.partition == WalkerPartition(index: 1, count: 3))
        #expect(second.statusTopic == "safewalk/_service/watchdog/1")
        #expect(second.mqtt.lastWill?.topic == "safewalk/_service/watchdog/1")
        let notifier = try ServiceConfiguration(
            service: .notifier, environment: ["SAFEWALK_PARTITIONS": "2", "SAFEWALK_PARTITION": "1"])
        #expect(notifier.mqtt.lastWill?.topic == "safewalk/_service/notifier/1")
        let one = try ServiceConfiguration(service: .companionChat, environment: [:])
        #expect(one.statusTopic == "safewalk/_service/companion-chat")
        #expect(one.mqtt.lastWill?.topic == "safewalk/_service/companion-chat")
    }

    /// contacts-store, web and broker-admin serve every walker: told they are one of N, they
    /// refuse to start rather than report as an instance nobody routes to.
    @Test func aServiceThatIsNotPartitionedRefusesPartitions() {
        for service in [ServiceName.contactsStore, .web, .brokerAdmin] {
            #expect(throws: ConfigurationError.self, "\(service)") {
                try ServiceConfiguration(
                    service: service, environment: ["SAFEWALK_PARTITIONS": "2", "SAFEWALK_PARTITION": "0"])
            }
            #expect(throws: Never.self) {
                try ServiceConfiguration(service: service, environment: ["SAFEWALK_PARTITIONS": "1"])
            }
        }
    }
}
