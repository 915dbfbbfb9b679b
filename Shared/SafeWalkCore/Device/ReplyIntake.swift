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
        // The strict reading first, so a well-formed reply is parsed once and not also into
        // JSONSerialization's dictionaries (issue 22: that was most of what a reply cost). Its
        // `text` asks for help exactly when ``CryForHelp``'s reading of it would: the same field,
        // the same words, and a `quickReply` that names a chip is not a boolean, so the strict
        // reading refuses it. A payload that names `text` twice is read generously first, as any
        // malformed one and as every reply was before: the two parsers need not keep the same copy.
        // What phones send is read in one pass (``FlatFixScanner/scanReply(_:)``), which answers
        // only what Foundation's decoder would answer the same, and leaves it everything else.
        let strict: Result<Reply, PayloadError>
        if payload.count <= maxBytes, let scanned = payload.withUnsafeBytes(FlatFixScanner.scanReply) {
            strict = .success(scanned)
        } else {
            do throws(PayloadError) {
                strict = .success(try SafeWalkJSON.decode(Reply.self, from: payload, maxBytes: maxBytes))
            } catch {
                strict = .failure(error)
            }
        }
        if case .success(let reply) = strict, !namesTextTwice(payload) {
            return CryForHelp.replyIsHelp(reply.text) ? .success(.cryForHelp) : checked(reply)
        }
        if CryForHelp.read(payload, on: .reply) != nil { return .success(.cryForHelp) }
        switch strict {
        case .success(let reply): return checked(reply)
        case .failure(let error): return .failure(Refusal(code: error.code))
        }
    }

    /// A decoded reply with its text cleaned, or why its text is refused.
    private static func checked(_ decoded: Reply) -> Result<Reading, Refusal> {
        var reply = decoded
        reply.text = clean(reply.text)
        guard !reply.text.isEmpty else { return .failure(Refusal(code: "empty_text")) }
        guard reply.text.count <= maxCharacters else { return .failure(Refusal(code: "text_too_long")) }
        return .success(.reply(reply))
    }

    private static let textKey = Data(#""text""#.utf8)

    /// Whether `"text"` occurs more than once: a duplicated key, or one in a nested object (inside
    /// a string its quotes would be escaped). Either only sends the reply down the generous path.
    static func namesTextTwice(_ payload: Data) -> Bool {
        guard let first = payload.range(of: textKey) else { return false }
        return payload.range(of: textKey, in: first.upperBound..<payload.endIndex) != nil
    }

    /// Control characters (other than line breaks) become spaces; ends are trimmed. A text with
    /// neither (nearly every reply) is returned as it is, without being rebuilt.
    public static func clean(_ text: String) -> String {
        var cleaned = text
        if text.unicodeScalars.contains(where: replaced) {
            cleaned = String(String.UnicodeScalarView(text.unicodeScalars.map { replaced($0) ? " " : $0 }))
        }
        guard let first = cleaned.unicodeScalars.first, let last = cleaned.unicodeScalars.last,
            !mayBeTrimmed(first), !mayBeTrimmed(last)
        else { return cleaned.trimmingCharacters(in: .whitespacesAndNewlines) }
        return cleaned
    }

    /// General category Cc is exactly U+0000–U+001F and U+007F–U+009F: compared by value, not
    /// looked up in the Unicode tables for every character of every reply.
    static func replaced(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)) && scalar != "\n"
    }

    /// Whether `trimmingCharacters(in: .whitespacesAndNewlines)` could remove it: every control
    /// character and space, U+0085, Unicode's white space, separators and format characters (a
    /// superset, so a text whose ends are none of these needs no trimming).
    private static func mayBeTrimmed(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value <= 0x20 || (0x7F...0xA0).contains(scalar.value) { return true }
        guard scalar.value >= 0x1680 else { return false }
        switch scalar.properties.generalCategory {
        // Foundation trims U+200B (format, Cf) too: every format character counts.
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .format: return true
        default: return scalar.properties.isWhitespace
        }
    }
}
