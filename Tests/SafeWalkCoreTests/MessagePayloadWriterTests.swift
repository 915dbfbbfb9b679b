import Foundation
import Testing

@testable import SafeWalkCore

/// Check-in prompts and chat messages are written with ``JSONObjectWriter``: the bytes the shared
/// encoder writes, and read back the same.
@Suite struct MessagePayloadWriterTests {
    static let texts = [
        "Are you OK?", "", "Café \"Zur Post\" \\ back/slash", "tab\tnew\nline\r\u{8}\u{C}", "\u{0}\u{1}\u{1F}\u{7F}",
        "🚨 emoji 👩‍👩‍👧 and 中文", String(repeating: "x", count: 300),
    ]
    static let times: [Double] = [0, 1_700_000_000, 1_700_000_000.25, 1e-7, 123_456_789.123_456]

    @Test func promptsAreWrittenAsTheSharedEncoderWritesThem() throws {
        for (index, id) in Self.texts.enumerated() {
            let at = Self.times[index % Self.times.count]
            let prompt = CheckInPrompt(id: id, at: at, replyBy: at + 30.5)
            let fast = try prompt.jsonPayload()
            #expect(fast == (try SafeWalkJSON.encode(prompt)), "\(String(decoding: fast, as: UTF8.self))")
            #expect(try SafeWalkJSON.decode(CheckInPrompt.self, from: fast) == prompt)
        }
    }

    @Test func chatMessagesAreWrittenAsTheSharedEncoderWritesThem() throws {
        for (index, text) in Self.texts.enumerated() {
            for isUser in [false, true] {
                let message = ChatMessage(
                    id: UUID().uuidString, text: text, tst: Self.times[index % Self.times.count], isUser: isUser)
                let fast = try message.jsonPayload()
                #expect(fast == (try SafeWalkJSON.encode(message)), "\(String(decoding: fast, as: UTF8.self))")
                #expect(try SafeWalkJSON.decode(ChatMessage.self, from: fast) == message)
            }
        }
    }

    @Test func aNonFiniteTimeIsAnErrorAsWithTheSharedEncoder() {
        #expect(throws: JSONObjectWriter.NonFiniteNumber.self) {
            try CheckInPrompt(id: "p", at: .infinity, replyBy: 1).jsonPayload()
        }
        #expect(throws: JSONObjectWriter.NonFiniteNumber.self) {
            try ChatMessage(id: "m", text: "hi", tst: .nan).jsonPayload()
        }
    }
}
