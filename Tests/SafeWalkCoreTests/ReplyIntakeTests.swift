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

    /// The quick path agrees with the definition (Unicode's Cc to spaces, then Foundation's trim)
    /// on every control character, every separator, and text with neither.
    @Test func cleaningAgreesWithTheUnicodeDefinition() {
        func reference(_ text: String) -> String {
            let scalars = text.unicodeScalars.map { scalar -> Unicode.Scalar in
                scalar.properties.generalCategory == .control && scalar != "\n" ? " " : scalar
            }
            return String(String.UnicodeScalarView(scalars)).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let interesting = (0...0xFFFF).compactMap(Unicode.Scalar.init).filter { scalar in
            scalar.value < 0x100 || scalar.properties.isWhitespace
                || [.control, .spaceSeparator, .lineSeparator, .paragraphSeparator, .format]
                    .contains(scalar.properties.generalCategory)
        }
        for scalar in interesting {
            let c = String(Character(scalar))
            for text in [c, "a\(c)b", "\(c)ok", "ok\(c)", "👍\(c)", "\(c)I'm okay 👍\(c)"] {
                #expect(ReplyIntake.clean(text) == reference(text), "U+\(String(scalar.value, radix: 16))")
            }
        }
        for text in ["I'm okay 👍", "walking past the library", "é", "a\nb", "\u{200B}x\u{200B}"] {
            #expect(ReplyIntake.clean(text) == reference(text))
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
