import Foundation
import SafeWalkCore
import Testing

@testable import ContactsStoreKit

/// Hostile commands: every one is either a command or an answerable refusal.
@Suite struct CircleIntakeTests {
    func read(_ json: String, topic: String = "safewalk/alice/circle/cmd") -> CircleIntake.Outcome {
        CircleIntake.read(topic: topic, payload: Data(json.utf8), prefix: "safewalk")
    }

    @Test func namesAreTrimmed() {
        #expect(
            read(#"{"v":1,"id":"c1","op":"follow","user":"  bob \n"}"#)
                == .command(user("alice"), command(.follow, "bob")))
    }

    @Test func blankNamesAreNoName() {
        #expect(read(#"{"v":1,"id":"c1","op":"follow","user":"   "}"#) == .command(user("alice"), command(.follow)))
    }

    @Test(
        arguments: [
            (#"not json"#, nil, nil),
            (#"[1,2]"#, nil, nil),
            (#"{"id":"c1","op":"follow"}"#, "c1", "follow"),
            (#"{"v":2,"id":"c1","op":"follow"}"#, "c1", "follow"),
            (#"{"v":1,"op":"follow"}"#, nil, "follow"),
            (#"{"v":1,"id":"","op":"follow"}"#, nil, "follow"),
            (#"{"v":1,"id":"has space","op":"follow"}"#, nil, "follow"),
            (#"{"v":1,"id":"c1","op":"dance"}"#, "c1", "dance"),
            (#"{"v":1,"id":"c1","op":"follow","user":42}"#, "c1", "follow"),
            (#"{"v":1,"id":"c1","op":"revealOnMissedCheckIn","on":"yes"}"#, "c1", "revealOnMissedCheckIn"),
            (#"{"v":1,"id":"c1","op":"revealOnMissedCheckIn","on":1}"#, "c1", "revealOnMissedCheckIn"),
        ] as [(String, String?, String?)])
    func refusedWithWhatCouldBeRead(json: String, id: String?, op: String?) {
        guard case .unreadable(let walker, let readID, let readOp, _) = read(json) else {
            Issue.record("accepted: \(json)")
            return
        }
        #expect(walker == user("alice"))
        #expect(readID == id)
        #expect(readOp == op)
    }

    @Test func aLongNameIsRefusedNotCut() {
        let long = String(repeating: "b", count: 500)
        guard case .unreadable = read(#"{"v":1,"id":"c1","op":"follow","user":"\#(long)"}"#) else {
            Issue.record("a 500-character name was accepted")
            return
        }
    }

    @Test func onlyTheCommandTopicIsACommand() {
        #expect(read(#"{"v":1,"id":"c1","op":"checkIn"}"#, topic: "safewalk/alice/circle") == .invalidTopic)
        #expect(read(#"{"v":1,"id":"c1","op":"checkIn"}"#, topic: "safewalk/_members/alice") == .invalidTopic)
    }
}
