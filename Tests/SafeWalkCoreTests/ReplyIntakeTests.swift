import Foundation
import Testing

@testable import SafeWalkCore

/// ``ReplyIntake`` reads a well-formed reply once, strictly, and still hears a cry for help in
/// it; anything malformed goes through ``CryForHelp``'s generous reading first.
@Suite struct ReplyIntakeTests {
    static func read(_ payload: String) -> Result<ReplyIntake.Reading, ReplyIntake.Refusal> {
        ReplyIntake.read(Data(payload.utf8), maxBytes: 16 * 1024)
    }

    @Test(arguments: [
        #"{"v":1,"text":"I need help 🚨","quickReply":true,"tst":1700000000}"#,
        #"{"v":1,"text":"i need help","tst":1700000000}"#,
        #"{"v":1,"text":"I need help 🚨","quickReply":"needHelp","tst":1700000000}"#,
        #"{"text":"I need help 🚨"}"#,
        #"{"v":1,"text":"I need help 🚨","text":"I need help 🚨","tst":1700000000}"#,
    ])
    func aCryForHelpIsHeardWellFormedOrNot(payload: String) {
        #expect(Self.read(payload) == .success(.cryForHelp))
    }

    @Test func aPlainReplyIsCleanedAndABadOneRefusedWithItsReason() {
        #expect(
            Self.read(#"{"v":1,"text":" on my way\u0007","tst":1700000000}"#)
                == .success(.reply(Reply(text: "on my way", tst: 1_700_000_000))))
        #expect(Self.read(#"{"v":1,"text":"  ","tst":1700000000}"#) == .failure(.init(code: "empty_text")))
        guard case .failure = Self.read(#"{"v":1,"text":"hi","quickReply":"yes","tst":1}"#) else {
            Issue.record("a quickReply that is not a boolean is refused"); return
        }
    }

    @Test func aSecondTextSendsTheReplyDownTheGenerousPathToo() {
        #expect(!ReplyIntake.namesTextTwice(Data(#"{"v":1,"text":"hi","tst":1}"#.utf8)))
        #expect(ReplyIntake.namesTextTwice(Data(#"{"v":1,"text":"hi","text":"ho","tst":1}"#.utf8)))
        #expect(ReplyIntake.namesTextTwice(Data(#"{"v":1,"text":"hi","extra":{"text":"ho"},"tst":1}"#.utf8)))
        // Inside a string a quote is escaped, so a value never spells the key.
        #expect(!ReplyIntake.namesTextTwice(Data(#"{"v":1,"text":"my \"text\"","tst":1}"#.utf8)))
    }
}
