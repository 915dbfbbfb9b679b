import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Testing
import WatchdogKit

/// Every input is hostile until validated; the walker always comes from the topic.
@Suite struct InputDecoderTests {
    let decoder = InputDecoder(prefix: "safewalk", maxBytes: 1_024)

    func decode(_ topic: String, _ payload: String) -> Result<DecodedInput, InputRejection> {
        do {
            return .success(try decoder.decode(MQTTMessage(topic: topic, string: payload), now: 1_000))
        } catch {
            return .failure(error)
        }
    }

    func code(_ topic: String, _ payload: String) -> String? {
        if case .failure(let rejection) = decode(topic, payload) { return rejection.code }
        return nil
    }

    @Test func theWalkerComesFromTheTopicNotThePayload() throws {
        let result = decode("safewalk/alice/action", #"{"v":1,"action":"needHelp","id":"1","walker":"bob"}"#)
        #expect(try result.get() == .event(try WalkerID("alice"), .action(Action(id: "1", kind: .needHelp))))
    }

    @Test func anInvalidWalkerInTheTopicIsRejected() {
        let result = decode("safewalk/_service/action", #"{"v":1,"action":"start","id":"1"}"#)
        guard case .failure(let rejection) = result else { Issue.record("accepted"); return }
        #expect(rejection.code == "invalid_walker")
        #expect(rejection.topicKind == .action)
        #expect(rejection.walker == nil)
    }

    @Test func aTopicOutsideTheInputsIsRejected() {
        #expect(code("safewalk/alice/status", #"{"v":1}"#) == "unexpected_topic")
        #expect(code("elsewhere/alice/action", #"{"v":1}"#) == "unexpected_topic")
    }

    @Test func oversizedPayloadsAreRefusedUnread() {
        #expect(code("safewalk/alice/presence", String(repeating: "x", count: 1_025)) == "too_large")
        #expect(code("safewalk/alice/reply", String(repeating: " ", count: 1_025)) == "too_large")
    }

    @Test func presenceIsTheBareWordAndAnEmptyRetainedPayloadIsIgnored() throws {
        #expect(
            try decode("safewalk/alice/presence", "offline\n").get()
                == .event(try WalkerID("alice"), .presence(.offline)))
        #expect(try decode("safewalk/alice/presence", "").get() == .ignored)
        #expect(code("safewalk/alice/presence", "Offline") == "invalid_presence")
    }

    @Test func repliesNeedVersionAndTextWithinLimits() {
        #expect(code("safewalk/alice/reply", #"{"text":"hi","tst":1}"#) == "missing_version")
        #expect(code("safewalk/alice/reply", #"{"v":1,"text":5,"tst":1}"#) == "wrong_type")
        let tooLong = String(repeating: "a", count: ReplyIntake.maxCharacters + 1)
        let roomy = InputDecoder(prefix: "safewalk", maxBytes: 64 * 1024)
        let error = #expect(throws: InputRejection.self) {
            try roomy.decode(
                MQTTMessage(topic: "safewalk/alice/reply", string: #"{"v":1,"text":"\#(tooLong)","tst":1}"#),
                now: 0)
        }
        #expect(error?.code == "text_too_long")
        #expect(code("safewalk/alice/reply", #"{"v":1,"text":" \u0007 ","tst":1}"#) == "empty_text")
    }

    @Test func positionsAreCheckedForRangesButNotForAge() throws {
        let old = #"{"v":1,"lat":30.28,"lon":-97.73,"tst":10,"acc":5,"moved":true,"lastMovedAt":10}"#
        guard case .event(_, .position(let update)) = try decode("safewalk/alice/position", old).get() else {
            Issue.record("an old retained position must still be read"); return
        }
        #expect(update.moved)
        #expect(
            code(
                "safewalk/alice/position", #"{"v":1,"lat":30,"lon":181,"tst":10,"acc":5,"moved":true,"lastMovedAt":10}"#
            )
                == "longitude_out_of_range")
        #expect(
            code(
                "safewalk/alice/position", #"{"v":1,"lat":30,"lon":1,"tst":5000,"acc":5,"moved":true,"lastMovedAt":10}"#
            )
                == "in_future")
        #expect(code("safewalk/alice/position", #"{"v":1,"lat":30,"lon":1,"tst":10,"acc":5}"#) == "missing_field")
    }

    @Test func actionIdsWithControlCharactersOrOverlongAreRejected() {
        #expect(code("safewalk/alice/action", #"{"v":1,"action":"start","id":"a\u0000b"}"#) == "invalid_action_id")
        let long = String(repeating: "i", count: 129)
        #expect(code("safewalk/alice/action", #"{"v":1,"action":"start","id":"\#(long)"}"#) == "invalid_action_id")
    }
}
