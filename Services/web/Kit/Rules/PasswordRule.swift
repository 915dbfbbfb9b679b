/// SafeWay's password rule: at least 8 characters with a digit and a special character (one that
/// is neither a letter nor a digit), at most 256 (a bound on the hashing work one request can ask
/// for). Characters are what a person sees (grapheme clusters), so "é" typed either way is one.
/// The password is also the walker's MQTT password, and MQTT strings may not carry U+0000 (nor,
/// should not, other control characters), so control characters are refused.
public enum PasswordRule {
    public static let minLength = 8
    public static let maxLength = 256

    public static func check(_ password: String, as field: FieldError.Field = .password) throws(FieldError) {
        let count = password.count
        if count < minLength { throw FieldError(field, .tooShort) }
        if count > maxLength { throw FieldError(field, .tooLong) }
        if password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw FieldError(field, .invalidCharacters)
        }
        if !password.contains(where: isDigit) { throw FieldError(field, .needsDigit) }
        if !password.contains(where: { !$0.isLetter && !isDigit($0) }) { throw FieldError(field, .needsSpecial) }
    }

    /// A decimal digit in any script (`3`, `٣`), not other numerals (`½`, `Ⅻ`).
    static func isDigit(_ character: Character) -> Bool {
        character.unicodeScalars.count == 1
            && character.unicodeScalars.first!.properties.numericType == .decimal
    }
}
