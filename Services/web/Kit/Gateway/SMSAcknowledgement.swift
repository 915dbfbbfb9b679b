import Foundation

/// A contact's SMS reply read as "I'm on it" (docs/CONTRACT.md, "Incidents"): `OK`, `1` or `on it`
/// in any case, with surrounding spaces and closing punctuation tolerated, optionally followed by
/// the incident's short code from the text they were sent (`OK 4821`), which picks one incident
/// when several of theirs are open. Anything else is not an acknowledgement: a reply that only
/// looks like one must never stop a ladder.
public struct SMSAcknowledgement: Hashable, Sendable {
    /// The words that acknowledge, after folding case and spacing.
    public static let words: Set<String> = ["ok", "okay", "1", "on it", "i'm on it", "im on it"]
    /// How long a short code is.
    public static let codeLength = 4

    /// The short code, when the reply named one.
    public let code: String?

    public init?(reply: String) {
        let folded = reply.lowercased()
            .replacingOccurrences(of: "\u{2019}", with: "'")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
            .trimmingCharacters(in: CharacterSet(charactersIn: ".!"))
        if Self.words.contains(folded) {
            code = nil
            return
        }
        guard let space = folded.lastIndex(of: " ") else { return nil }
        let word = String(folded[..<space]).trimmingCharacters(in: CharacterSet(charactersIn: ".!,"))
        let code = String(folded[folded.index(after: space)...])
        guard Self.words.contains(word), code.count == Self.codeLength, code.allSatisfy(\.isASCII),
            code.allSatisfy(\.isNumber)
        else { return nil }
        self.code = code
    }
}
