import Foundation

/// What a valid reply on `{w}/reply` is, decided once for both of its readers (the watchdog and
/// companion-chat), so one never accepts what the other refuses.
///
/// ``CryForHelp`` is asked first: a reply that asks for help is taken however malformed it is.
/// Everything else is strict: `v` 1, `text` a string, `tst` a number, `quickReply` a boolean
/// when present; control characters other than line breaks become spaces, the ends are trimmed,
/// and the text must then be 1 to ``maxCharacters`` characters.
public enum ReplyIntake {
    public static let maxCharacters = 1_000

    /// How a payload on `{w}/reply` reads.
    public enum Reading: Hashable, Sendable {
        /// It asks for help (the quick reply "I need help"), whatever else is wrong with it.
        case cryForHelp
        /// A valid reply, text cleaned.
        case reply(Reply)
    }

    /// Why a reply was refused: a stable code (`empty_text`, `text_too_long`, or a
    /// ``PayloadError`` code).
    public struct Refusal: Error, Hashable, Sendable {
        public var code: String
    }

    public static func read(_ payload: Data, maxBytes: Int) -> Result<Reading, Refusal> {
        if CryForHelp.read(payload, on: .reply) != nil { return .success(.cryForHelp) }
        do throws(PayloadError) {
            var reply = try SafeWalkJSON.decode(Reply.self, from: payload, maxBytes: maxBytes)
            reply.text = clean(reply.text)
            guard !reply.text.isEmpty else { return .failure(Refusal(code: "empty_text")) }
            guard reply.text.count <= maxCharacters else { return .failure(Refusal(code: "text_too_long")) }
            return .success(.reply(reply))
        } catch {
            return .failure(Refusal(code: error.code))
        }
    }

    /// Control characters (other than line breaks) become spaces; ends are trimmed.
    public static func clean(_ text: String) -> String {
        let scalars = text.unicodeScalars.map { scalar -> Unicode.Scalar in
            scalar.properties.generalCategory == .control && scalar != "\n" ? " " : scalar
        }
        return String(String.UnicodeScalarView(scalars)).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
