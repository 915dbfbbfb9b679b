/// The rule for ids that travel as keys, not as topic levels: a request's, an incident's, an SMS
/// gateway's message sid. They become outbox, ledger and SQLite keys and fields of answers and
/// logs, so they are bounded and printable: 1...128 ASCII characters from `!` to `~`.
public enum MessageKey {
    public static let maxLength = 128

    public static func isValid(_ id: String) -> Bool {
        (1...maxLength).contains(id.utf8.count) && id.utf8.allSatisfy { (0x21...0x7e).contains($0) }
    }
}
