/// A pragmatic e-mail rule: the address is only ever used to reach a person, so it refuses what
/// is certainly wrong rather than implementing RFC 5322. Trimmed; at most 254 bytes; exactly one
/// `@`; a non-empty local part; a domain with a dot, no empty label; no spaces or control
/// characters anywhere. Unique regardless of case.
public enum EmailRule {
    public static let maxBytes = 254

    /// The trimmed address, or the reason it is refused.
    public static func check(_ raw: String) throws(FieldError) -> String {
        let address = raw.trimmingWhitespace()
        if address.isEmpty { throw FieldError(.email, .empty) }
        if address.utf8.count > maxBytes { throw FieldError(.email, .tooLong) }
        if address.unicodeScalars.contains(where: isForbidden) { throw FieldError(.email, .invalidCharacters) }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { throw FieldError(.email, .invalid) }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }) else { throw FieldError(.email, .invalid) }
        return address
    }

    /// What uniqueness is decided on.
    public static func key(_ address: String) -> String { address.lowercased() }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
            || scalar.properties.generalCategory == .format
    }
}
