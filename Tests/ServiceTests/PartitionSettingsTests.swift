import SafeWalkCore
import SafeWalkService
import Testing

/// `SAFEWALK_PARTITIONS` / `SAFEWALK_PARTITION`, read once for every service by its configuration
/// (each partitioned service's settings take it from there): one watchdog reads every walker; of
/// several, each must be told which it is, since a guessed index would watch walkers the engine
/// routes elsewhere.
@Suite struct PartitionSettingsTests {
    func settings(_ values: [String: String]) throws(ConfigurationError) -> ServiceConfiguration {
        try ServiceConfiguration(service: .watchdog, environment: values)
    }

    @Test func oneWatchdogHasNoPartition() throws {
        #expect(try settings([:]).partition == nil)
        #expect(try settings(["SAFEWALK_PARTITIONS": "1"]).partition == nil)
        #expect(
            try settings(["SAFEWALK_PARTITIONS": "1", "SAFEWALK_PARTITION": "0"]).partition == nil)
    }

    @Test func oneOfSeveralIsTheIndexGiven() throws {
        let partition = try settings(["SAFEWALK_PARTITIONS": "3", "SAFEWALK_PARTITION": "2"])
            .partition
        #expect(partition == WalkerPartition(index: 2, count: 3))
    }

    @Test func aMissingOrImpossibleIndexIsRefusedWithTheVariable() {
        #expect(throws: ConfigurationError.self) { try settings(["SAFEWALK_PARTITIONS": "3"]) }
        for (count, index) in [("3", "3"), ("3", "-1"), ("3", "one"), ("1", "1"), ("0", "0"), ("1000", "0")] {
            #expect(throws: ConfigurationError.self, "\(count) \(index)") {
                try settings(["SAFEWALK_PARTITIONS": count, "SAFEWALK_PARTITION": index])
            }
        }
        do {
            _ = try settings(["SAFEWALK_PARTITIONS": "2"])
        } catch {
            #expect(error.description.contains("SAFEWALK_PARTITION must be set"))
        }
    }
}
