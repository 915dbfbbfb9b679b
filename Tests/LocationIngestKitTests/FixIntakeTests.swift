import Foundation
import LocationIngestKit
import SafeWalkCore
import Testing

@Suite struct FixIntakeTests {
    let policy = FixPolicy()

    func read(_ topic: String, _ payload: Data, policy: FixPolicy = FixPolicy()) -> IntakeOutcome {
        FixIntake.read(topic: topic, payload: payload, prefix: "safewalk", now: Fixtures.now, policy: policy)
    }

    func reason(_ topic: String, _ payload: String) -> String? {
        if case .rejected(let reason, _, _) = read(topic, Data(payload.utf8)) { return reason }
        return nil
    }

    @Test func ownFixFormatIsAcceptedForTheTopicWalker() {
        guard case .fix(let walker, let fix) = read("safewalk/alice/fix", Fixtures.fixJSON()) else {
            Issue.record("not accepted"); return
        }
        #expect(walker == Fixtures.alice)
        #expect(fix.lat == 30.2849 && fix.acc == 3)
    }

    @Test func owntracksLocationUsesTheUserAsWalker() {
        guard
            case .fix(let walker, let fix) = read(
                "owntracks/alice/phone", Fixtures.owntracksBookletLocation(tst: Fixtures.now))
        else { Issue.record("not accepted"); return }
        #expect(walker == Fixtures.alice)
        #expect(fix.acc == 75 && fix.vel == 54 && fix.batt == 87)
    }

    @Test(arguments: ["transition", "card", "waypoint", "status", "encrypted"])
    func otherOwnTracksTypesAreIgnoredNotRejected(type: String) {
        let payload = Data(#"{"_type":"\#(type)","tst":1750000000}"#.utf8)
        #expect(read("owntracks/alice/phone", payload) == .ignored(Fixtures.alice, type: type))
    }

    @Test func theOwnTracksLastWillIsReadOnlyOnOwnTracksTopics() {
        let will = Data(#"{"_type":"lwt","tst":1750000000}"#.utf8)
        #expect(read("owntracks/alice/phone", will) == .lastWill(Fixtures.alice, connectedAt: 1_750_000_000))
        // Our app says `offline` on `{w}/presence`; on its fix topic a will is just not a fix.
        #expect(read("safewalk/alice/fix", will) == .ignored(Fixtures.alice, type: "lwt"))
    }

    @Test func anEmptyOwnTracksMessageIsARetainedClearButAnEmptyFixIsMalformed() {
        #expect(read("owntracks/alice/phone", Data()) == .cleared(Fixtures.alice))
        #expect(reason("safewalk/alice/fix", "") == "malformed")
    }

    @Test func hostilePayloadsAreRejectedWithTheirReason() {
        let t = "safewalk/alice/fix"
        #expect(reason(t, #"{"v":1,"lat":30.1,"lon":-97"#) == "malformed")
        #expect(reason(t, #"{"v":1,"lat":NaN,"lon":-97.7,"tst":1750000000}"#) == "malformed")
        #expect(reason(t, #"{"v":1,"lat":1e308,"lon":-97.7,"tst":1750000000}"#) == "latitude_out_of_range")
        #expect(reason(t, #"{"v":1,"lat":91,"lon":-97.7,"tst":1750000000}"#) == "latitude_out_of_range")
        #expect(reason(t, #"{"v":1,"lat":30,"lon":-180.5,"tst":1750000000}"#) == "longitude_out_of_range")
        #expect(reason(t, #"{"v":1,"lat":"30.28","lon":-97.7,"tst":1750000000}"#) == "wrong_type")
        #expect(reason(t, #"{"v":1,"lon":-97.7,"tst":1750000000}"#) == "missing_field")
        #expect(reason(t, #"{"lat":30,"lon":-97.7,"tst":1750000000}"#) == "missing_version")
        #expect(reason(t, #"{"v":1,"lat":30,"lon":-97.7,"tst":1750000000,"acc":-1}"#) == "invalid_accuracy")
        #expect(reason(t, "[1,2,3]") == "malformed")
        #expect(reason(t, String(repeating: " ", count: 9000)) == "too_large")
    }

    @Test func hostileTopicsAreRejectedWithoutAWalker() {
        let good = String(decoding: Fixtures.fixJSON(), as: UTF8.self)
        #expect(
            read("safewalk/wälker/fix", Data(good.utf8))
                == .rejected(reason: "invalid_walker_id", kind: .fix, walker: nil))
        #expect(
            read("safewalk/\(String(repeating: "a", count: 65))/fix", Data(good.utf8))
                == .rejected(reason: "invalid_walker_id", kind: .fix, walker: nil))
        #expect(
            read("safewalk//fix", Data(good.utf8)) == .rejected(reason: "invalid_walker_id", kind: .fix, walker: nil))
        #expect(reason("safewalk/_service/fix", good) == "invalid_walker_id")  // reserved
        #expect(reason("safewalk/+/fix", good) == "invalid_topic")
        #expect(reason("safewalk/#", good) == "invalid_topic")
        #expect(reason("owntracks/a+b/phone", good) == "invalid_topic")
        #expect(
            read("owntracks/🚶/phone", Data(good.utf8))
                == .rejected(reason: "invalid_walker_id", kind: .owntracks, walker: nil))
    }

    @Test func theTimeWindowIsConfigurable() {
        let tenMinutesOld = Fixtures.fixJSON(tst: Fixtures.now - 600)
        let strict = FixPolicy(maxAge: 300)
        let lenient = FixPolicy(maxAge: 3600)
        #expect(
            read("safewalk/alice/fix", tenMinutesOld, policy: strict)
                == .rejected(reason: "too_old", kind: .fix, walker: Fixtures.alice))
        if case .fix = read("safewalk/alice/fix", tenMinutesOld, policy: lenient) {
        } else {
            Issue.record("lenient refused")
        }
        #expect(
            read("safewalk/alice/fix", Fixtures.fixJSON(tst: Fixtures.now + 120), policy: FixPolicy(maxFutureSkew: 60))
                == .rejected(reason: "in_future", kind: .fix, walker: Fixtures.alice))
    }
}
