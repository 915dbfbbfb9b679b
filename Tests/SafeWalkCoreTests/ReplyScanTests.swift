import Foundation
import Testing

@testable import SafeWalkCore

/// Replies are read in one pass (`FlatFixScanner.scanReply`) when the scanner is sure, and by
/// Foundation's decoder otherwise: either way ``ReplyIntake`` answers as the full decoder would.
@Suite struct ReplyScanTests {
    /// What the app and the load test send takes the fast path and reads back whole.
    @Test func whatPhonesSendTakesTheFastPath() throws {
        for reply in [
            Reply(text: QuickReply.okay.text, quickReply: true, tst: 1_800_000_000.5),
            Reply(text: "on my way, 5 min", tst: 1_800_000_000),
            Reply(text: "Ça va — j’arrive 🚶‍♀️", quickReply: false, tst: 1),
        ] {
            let data = try SafeWalkJSON.encode(reply)
            #expect(data.withUnsafeBytes(FlatFixScanner.scanReply) == reply)
        }
    }

    @Test(arguments: [
        #"{"v":1,"text":"hi","tst":3}"#,
        #" { "tst" : 3 , "text" : "hi" , "v" : 1 , "quickReply" : false } "#,
        #"{"v":1,"text":"hi","tst":3,"extra":{"a":[1,"b",true]}}"#,
        #"{"v":1,"text":"","tst":3}"#,
        #"{"v":1,"text":"I need help 🚨","tst":3,"quickReply":true}"#,
        #"{"v":1,"text":"a\"b","tst":3}"#,
        #"{"v":1,"text":"a\nb","tst":3}"#,
        #"{"v":1,"text":"a\u00e9","tst":3}"#,
        #"{"v":1,"text":5,"tst":3}"#,
        #"{"v":1,"text":null,"tst":3}"#,
        #"{"v":1,"text":"hi","tst":"3"}"#,
        #"{"v":1,"text":"hi","tst":1e400}"#,
        #"{"v":1,"text":"hi","tst":3,"quickReply":"yes"}"#,
        #"{"v":1,"text":"hi","tst":3,"quickReply":null}"#,
        #"{"v":1,"text":"hi","tst":3,"quickReply":1}"#,
        #"{"v":1,"text":"hi","text":"ho","tst":3}"#,
        #"{"v":1,"text":"hi","tst":3,"tst":4}"#,
        #"{"v":2,"text":"hi","tst":3}"#,
        #"{"v":1.0,"text":"hi","tst":3}"#,
        #"{"text":"hi","tst":3}"#,
        #"{"v":1,"tst":3}"#,
        #"{"v":1,"text":"hi"}"#,
        #"{"_type":"location","v":1,"text":"hi","tst":3}"#,
        #"{"v":1,"text":"hi","tst":3}x"#,
        #"{"v":1,"text":"hi","tst":03}"#,
        #"[{"v":1}]"#, "", "{}",
    ])
    func agreesWithTheFullDecoder(payload: String) {
        Self.expectAgreement(Data(payload.utf8))
    }

    /// Bytes that are not UTF-8 inside the text, and a raw control character, are the full
    /// decoder's to refuse: the scanner never answers for them.
    @Test func invalidTextBytesAreLeftToTheFullDecoder() {
        for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0x01], [0x1F]] {
            let data = Data(#"{"v":1,"text":"a"#.utf8) + Data(bad) + Data(#"","tst":3}"#.utf8)
            #expect(data.withUnsafeBytes(FlatFixScanner.scanReply) == nil)
            Self.expectAgreement(data)
        }
    }

    /// Every prefix of a reply and every one-byte change of it: the scanner answers only what
    /// the full decoder answers.
    @Test func everyCutAndEveryByteChangeAgree() {
        let base = Array(#"{"quickReply":true,"text":"I'm okay 👍","tst":1800000000.5,"v":1}"#.utf8)
        var scanned = 0
        for cut in 0...base.count { scanned += Self.expectAgreement(Data(base[..<cut])) ? 1 : 0 }
        for index in base.indices {
            for byte: UInt8 in [0x22, 0x5C, 0x2C, 0x7D, 0x30, 0x20, 0x00, 0xFF] {
                var changed = base
                changed[index] = byte
                scanned += Self.expectAgreement(Data(changed)) ? 1 : 0
            }
        }
        #expect(scanned > 20)  // the fast path answered for many of them, so it was compared
    }

    /// Whether the scanner answered; records an issue wherever it and the full decoder differ,
    /// and wherever ``ReplyIntake`` reads a payload otherwise than from the full decoder's reply.
    @discardableResult
    static func expectAgreement(_ data: Data) -> Bool {
        let full = try? SafeWalkJSON.decode(Reply.self, from: data)
        let fast = data.withUnsafeBytes(FlatFixScanner.scanReply)
        if let fast { #expect(full == fast, "\(String(decoding: data, as: UTF8.self))") }
        if let full, !ReplyIntake.namesTextTwice(data) {
            let read = try? ReplyIntake.read(data, maxBytes: 64 * 1024).get()
            if CryForHelp.replyIsHelp(full.text) {
                #expect(read == .cryForHelp)
            } else {
                var cleaned = full
                cleaned.text = ReplyIntake.clean(full.text)
                let valid = !cleaned.text.isEmpty && cleaned.text.count <= ReplyIntake.maxCharacters
                #expect(read == (valid ? .reply(cleaned) : nil), "\(String(decoding: data, as: UTF8.self))")
            }
        }
        return fast != nil
    }
}
