import Foundation
import SafeWalkCore
import Testing

/// `{w}/reply` has two readers, the watchdog and companion-chat. Whatever one accepts the other
/// accepts, and they refuse with the same reason: one ``ReplyIntake`` and one ``CryForHelp``.
@Suite struct ReplyAgreementTests {
    static let replies: [String] = [
        #"{"v":1,"text":"I'm okay 👍","quickReply":true,"tst":1700000000}"#,
        #"{"v":1,"text":"","tst":1700000000}"#,
        #"{"v":1,"text":" \u0007 \n","tst":1700000000}"#,
        #"{"v":1,"text":"\#(String(repeating: "a", count: 1_000))","tst":1700000000}"#,
        #"{"v":1,"text":"\#(String(repeating: "a", count: 1_001))","tst":1700000000}"#,
        #"{"v":1,"text":"walking past the library","tst":1700000000}"#,
        #"{"v":1,"text":"hi"}"#,
        #"{"text":"hi","tst":1}"#,
        #"{"v":1,"text":5,"tst":1}"#,
        #"{"v":1,"text":"hi","quickReply":"yes","tst":1}"#,
        #"{"v":1,"text":"I need help 🚨","quickReply":"needHelp"}"#,
        "I need help 🚨",
        "just text",
        "[]",
        "",
    ]

    @Test(arguments: replies)
    func bothReadersOfARepliesTopicGiveTheSameVerdict(payload: String) {
        let topic = "safewalk/alice/reply"
        let watchdog = Verdicts.verdict(.watchdog, topic: topic, payload: Data(payload.utf8), now: 1_700_000_000)
        let chat = Verdicts.verdict(.companionChat, topic: topic, payload: Data(payload.utf8), now: 1_700_000_000)
        #expect(watchdog == chat, "\(payload.prefix(60)): watchdog \(watchdog), chat \(chat)")
    }
}
