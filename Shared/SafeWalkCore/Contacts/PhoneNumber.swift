/// Why a phone number cannot be dialled. Raw values are stable codes for the wire and logs.
public enum UndialableReason: String, CaseIterable, Hashable, Sendable, Codable {
    case empty
    /// Letters (vanity numbers, "ext", names typed in the wrong field): never guessed at.
    case containsLetters
    /// Anything other than digits, spaces, `-`, `.`, `(`, `)` and one leading `+`.
    case invalidCharacter
    /// A `+` that is not the first character, or more than one.
    case misplacedPlus
    /// Only punctuation.
    case noDigits
    case tooShort
    /// More than 15 digits (the E.164 maximum).
    case tooLong

    /// Plain words for the person who typed the number.
    public var explanation: String {
        switch self {
        case .empty: "No phone number was given."
        case .containsLetters: "The number contains letters."
        case .invalidCharacter: "The number contains characters a phone cannot dial."
        case .misplacedPlus: "A + is only allowed at the very start."
        case .noDigits: "The number has no digits."
        case .tooShort: "The number is too short."
        case .tooLong: "The number is too long."
        }
    }
}

/// The result of normalising a phone number.
public enum PhoneNumber: Hashable, Sendable {
    case dialable(String)
    case undialable(UndialableReason)

    /// The normalised number when dialable.
    public var dialable: String? {
        if case .dialable(let number) = self { return number }
        return nil
    }

    /// Normalises a number, failing safe: anything ambiguous is undialable, never guessed.
    ///
    /// Rule: trim surrounding whitespace; drop spaces, `-`, `.`, `(`, `)`; allow one `+` as
    /// the first character; everything else left must be ASCII digits, `minimumDigits`...15 of
    /// them. Then: a `+` number is kept as `+digits`; 10 digits starting 2–9 (a North American
    /// number) become `+1` + digits; 11 digits starting `1` become `+` + digits; anything else
    /// stays as national digits. `minimumDigits` is 7 for contacts; pass 3 for a configured
    /// short emergency number such as 911.
    public static func normalise(_ raw: String, minimumDigits: Int = 7) -> PhoneNumber {
        let trimmed = raw.trimmingWhitespace()
        if trimmed.isEmpty { return .undialable(.empty) }
        var digits = ""
        var hasPlus = false
        for (index, char) in trimmed.enumerated() {
            // asciiValue, not isNumber: other scripts' digits and "5\u{301}" are not dialable.
            if let ascii = char.asciiValue, (0x30...0x39).contains(ascii) {
                digits.append(char)
                continue
            }
            switch char {
            case " ", "-", ".", "(", ")", "\u{00A0}": continue
            case "+":
                if index != 0 || hasPlus { return .undialable(.misplacedPlus) }
                hasPlus = true
            default:
                return .undialable(char.isLetter ? .containsLetters : .invalidCharacter)
            }
        }
        if digits.isEmpty { return .undialable(.noDigits) }
        if digits.count < minimumDigits { return .undialable(.tooShort) }
        if digits.count > 15 { return .undialable(.tooLong) }
        if hasPlus { return .dialable("+" + digits) }
        if digits.count == 10, let first = digits.first, first >= "2" { return .dialable("+1" + digits) }
        if digits.count == 11, digits.hasPrefix("1") { return .dialable("+" + digits) }
        return .dialable(digits)
    }

    /// A number safe to log: a leading `+` and the last 4 digits, the rest as `*`
    /// (e.g. `+*******4441`). Numbers of 4 characters or fewer are fully masked.
    public static func masked(_ number: String) -> String {
        let chars = Array(number)
        guard chars.count > 4 else { return String(repeating: "*", count: chars.count) }
        let keepFrom = chars.count - 4
        return String(
            chars.enumerated().map { index, char in
                index >= keepFrom || (index == 0 && char == "+") ? char : "*"
            })
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
