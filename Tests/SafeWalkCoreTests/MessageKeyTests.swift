import SafeWalkCore
import Testing

/// The one rule for ids used as keys (``MessageKey``), shared by the notifier, the watchdog's desk
/// intake and web's gateway and desk handlers.
@Suite struct MessageKeyTests {
    @Test(arguments: ["a", "esc-1", "SM0123456789abcdef", "~!{}", String(repeating: "x", count: 128)])
    func printableASCIIUpTo128IsAKey(_ id: String) {
        #expect(MessageKey.isValid(id))
    }

    @Test(arguments: ["", " ", "a b", "tab\there", "new\nline", "é", "🚨", String(repeating: "x", count: 129), "\u{7f}"])
    func emptyTooLongSpacesControlsAndNonASCIIAreNot(_ id: String) {
        #expect(!MessageKey.isValid(id))
    }
}
