import Foundation
import SafeWalkCore
import Testing

/// No cry for help is lost: every malformed way a device might ask for help is still help, and
/// nothing that merely looks like help is.
@Suite struct CryForHelpTests {
    /// (payload on `{w}/action`, the help it must be read as).
    static let malformedActions: [(String, HelpCry.Kind)] = [
        (#"{"v":1,"action":"needHelp","id":"a1"}"#, .needHelp),  // well formed, for reference
        (#"{"action":"needHelp","id":"a1"}"#, .needHelp),  // no v
        (#"{"v":2,"action":"needHelp","id":"a1"}"#, .needHelp),  // another v
        (#"{"v":"1","action":"needHelp","id":"a1"}"#, .needHelp),  // v as a string
        (#"{"v":true,"action":"needHelp","id":"a1"}"#, .needHelp),  // v as a boolean
        (#"{"v":1,"action":"needHelp"}"#, .needHelp),  // no id
        (#"{"v":1,"action":"needHelp","id":""}"#, .needHelp),  // empty id
        (#"{"v":1,"action":"needHelp","id":42}"#, .needHelp),  // numeric id
        (#"{"v":1,"action":"needHelp","id":null}"#, .needHelp),  // null id
        (#"{"v":1,"action":"needHelp","id":"a1","note":7}"#, .needHelp),  // note of the wrong type
        (#"{"v":1,"action":"needHelp","id":"a1","note":"\#(String(repeating: "x", count: 141))"}"#, .needHelp),
        (#"{"v":1,"action":"needHelp","id":"a1","tst":"yesterday"}"#, .needHelp),  // stray wrong field
        (#"{"v":1,"action":"NEEDHELP","id":"a1"}"#, .needHelp),  // other case
        (#"{"v":1,"action":"need_help","id":"a1"}"#, .needHelp),  // other spelling
        (#"{"v":1,"action":" needHelp ","id":"a1"}"#, .needHelp),  // padded
        (#"{"v":1,"action":"help"}"#, .needHelp),
        (#"{"v":1,"action":"SOS"}"#, .needHelp),
        (#""needHelp""#, .needHelp),  // a JSON string
        ("needHelp", .needHelp),  // the bare word
        ("needHelp\n", .needHelp),  // from a shell
        (#"{"v":1,"action":"needHelp","id":"a1""#, .needHelp),  // cut short
        (#"{"v":1,"action":"needHelp",,"id":"a1"}"#, .needHelp),  // stray comma
        (#"{"v":1,"action":"panic","id":"p1","level":"amber"}"#, .panic(.amber)),  // reference
        (#"{"v":1,"action":"panic","id":"p1"}"#, .panic(.red)),  // no level
        (#"{"v":1,"action":"panic","id":"p1","level":"purple"}"#, .panic(.red)),  // unknown level
        (#"{"v":1,"action":"panic","id":"p1","level":2}"#, .panic(.red)),  // level as a number
        (#"{"v":1,"action":"panic","id":"p1","level":"AMBER"}"#, .panic(.amber)),  // other case
        (#"{"action":"panic"}"#, .panic(.red)),  // nothing but the word
        ("panic", .panic(.red)),
        (#"{"v":1,"action":"panic","level":"red""#, .panic(.red)),  // cut short
        (#"{"v":1,"action":"release"}"#, .release),  // release without id
        ("release", .release),
        (#"{"action":"hold","level":"amber"}"#, .hold(.amber)),  // hold without v or id
        (#"{"v":1,"action":"hold","id":"h1","level":null}"#, .hold(.red)),
    ]

    /// (payload on `{w}/reply`): every one asks for help.
    static let malformedReplies: [String] = [
        #"{"v":1,"text":"I need help 🚨","quickReply":true,"tst":1700000000}"#,  // well formed
        #"{"v":1,"text":"I need help 🚨","quickReply":"needHelp","tst":1700000000}"#,  // the chip id as a string
        #"{"text":"I need help 🚨","tst":1700000000}"#,  // no v
        #"{"v":2,"text":"I need help 🚨","tst":1700000000}"#,  // another v
        #"{"v":1,"text":"I need help 🚨"}"#,  // no tst
        #"{"v":1,"text":"I need help 🚨","tst":"now"}"#,  // tst of the wrong type
        #"{"v":1,"text":"i need help!","tst":1}"#,  // typed, no emoji
        #"{"v":1,"text":"I NEED HELP","tst":1}"#,
        #"{"v":1,"quickReply":"needHelp","tst":1}"#,  // only the chip id
        #"{"v":1,"text":"","quickReply":"needHelp"}"#,  // empty text, the chip id
        #""I need help 🚨""#,  // a JSON string
        "I need help 🚨",  // bare text
        "needHelp",  // the bare chip id
        #"{"v":1,"text":"I need help 🚨","tst":17"#,  // cut short
    ]

    @Test(arguments: malformedActions)
    func everyMalformedHelpActionIsHelp(payload: String, kind: HelpCry.Kind) {
        #expect(CryForHelp.read(Data(payload.utf8), on: .action)?.kind == kind, "\(payload)")
    }

    @Test(arguments: malformedReplies)
    func everyMalformedHelpReplyIsHelp(payload: String) {
        #expect(CryForHelp.read(Data(payload.utf8), on: .reply)?.kind == .needHelp, "\(payload)")
    }

    @Test func theTableIsLargeEnough() {
        #expect(Self.malformedActions.count + Self.malformedReplies.count >= 40)
    }

    static let lookAlikes: [(Topic.Kind, String)] = [
        (.reply, #"{"v":1,"text":"I don't need help","tst":1}"#),
        (.reply, #"{"v":1,"text":"I need help with my homework","tst":1}"#),
        (.reply, #"{"v":1,"text":"helpful","tst":1}"#),
        (.reply, #"{"v":1,"text":"I'm okay 👍","tst":1}"#),
        (.reply, #"{"v":1,"text":"Feeling nervous","quickReply":"nervous","tst":1}"#),
        (.reply, "I'm okay"),
        (.reply, "help me with this"),
        (.action, #"{"v":1,"action":"imSafe","id":"a1"}"#),
        (.action, #"{"v":1,"action":"helpful","id":"a1"}"#),
        (.action, #"{"v":1,"action":"stop","note":"needHelp"}"#),
        (.action, #"{"v":1,"id":"needHelp"}"#),
        (.action, #"{"v":1,"action":["needHelp"]}"#),
        (.action, "hold"),  // a bare hold is not a cry: nothing would keep it alive
        (.action, "42"),
        (.action, ""),
        (.fix, "needHelp"),  // help is read on action and reply only
    ]

    @Test(arguments: lookAlikes)
    func lookAlikesAreNotHelp(channel: Topic.Kind, payload: String) {
        #expect(CryForHelp.read(Data(payload.utf8), on: channel) == nil, "\(payload)")
    }

    @Test func whatWasWrongIsReportedAndWhatIsGoodIsKept() throws {
        let cry = try #require(
            CryForHelp.read(
                Data(#"{"action":"panic","id":"p9","note":"Near the bus stop"}"#.utf8),
                on: .action))
        #expect(cry.kind == .panic(.red))
        #expect(cry.id == "p9")
        #expect(cry.note == "Near the bus stop")
        #expect(cry.warnings == ["missing_version", "missing_level"])
        let clean = try #require(CryForHelp.read(Data(#"{"v":1,"action":"needHelp","id":"a"}"#.utf8), on: .action))
        #expect(clean.warnings.isEmpty)
    }

    @Test func aBadNoteIsDroppedNeverTheCry() throws {
        let long = String(repeating: "é", count: 141)
        let cry = try #require(
            CryForHelp.read(
                Data(#"{"v":1,"action":"needHelp","id":"a","note":"\#(long)"}"#.utf8),
                on: .action))
        #expect(cry.note == nil)
        #expect(cry.warnings == ["invalid_note"])
        #expect(CryForHelp.usableNote(String(repeating: "é", count: 140)) != nil)
    }
}
