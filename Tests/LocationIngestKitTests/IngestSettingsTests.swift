import LocationIngestKit
import SafeWalkCore
import SafeWalkService
import Testing

@Suite struct IngestSettingsTests {
    func settings(_ env: [String: String]) throws -> IngestSettings {
        try IngestSettings(configuration: ServiceConfiguration(service: .locationIngest, environment: env))
    }

    @Test func defaultsAreTwentyFourHoursOfHistoryAndTheSharedFixPolicy() throws {
        let s = try settings([:])
        #expect(s.retention == 24 * 3600)
        #expect(IngestSettings().retention == 24 * 3600)
        #expect(s.policy == FixPolicy())
        #expect(s.movement.thresholdMeters == 5)
    }

    @Test func everySettingIsReadFromTheEnvironment() throws {
        let s = try settings([
            "SAFEWALK_FIX_MAX_BYTES": "2048", "SAFEWALK_FIX_MAX_AGE": "3600", "SAFEWALK_FIX_MAX_FUTURE": "5",
            "SAFEWALK_HISTORY_RETENTION": "604800", "SAFEWALK_HISTORY_PRUNE_INTERVAL": "60",
            "SAFEWALK_MOVEMENT_METERS": "8",
            "SAFEWALK_POSITION_INTERVAL": "0.25",
        ])
        #expect(s.policy == FixPolicy(maxBytes: 2048, maxAge: 3600, maxFutureSkew: 5))
        #expect(s.retention == 604800 && s.pruneInterval == 60 && s.movement.thresholdMeters == 8)
        #expect(s.positionInterval == 0.25)
    }

    @Test func aBadValueNamesItsVariable() {
        #expect(throws: ConfigurationError.self) { try settings(["SAFEWALK_HISTORY_RETENTION": "-1"]) }
        do {
            _ = try settings(["SAFEWALK_FIX_MAX_BYTES": "lots"])
            Issue.record("accepted")
        } catch {
            #expect("\(error)".contains("SAFEWALK_FIX_MAX_BYTES"))
        }
    }
}
