import ArgumentParser
import Foundation
import SafeWalkCore

/// Parsers for `simulate`'s values, so a bad level, PIN or note is refused by ArgumentParser
/// with the option named (`The value '12a4' is invalid for '--end-with-pin <pin>': …`) instead
/// of being sent and refused by the watchdog. The rules are the contract's own (`PIN`,
/// `CryForHelp.usableNote`), not copies.
enum ArgumentTransforms {
    static func level(_ text: String) throws -> EscalationLevel {
        guard let level = EscalationLevel(rawValue: text.lowercased()) else {
            throw ValidationError("a level is \(EscalationLevel.allCases.map(\.rawValue).joined(separator: " or "))")
        }
        return level
    }

    static func pin(_ text: String) throws -> PIN {
        guard let pin = PIN(text) else {
            throw ValidationError(
                "a PIN is \(PIN.lengths.lowerBound) to \(PIN.lengths.upperBound) digits (0-9), nothing else")
        }
        return pin
    }

    /// `CANCEL` or `CANCEL:DURESS`.
    static func pins(_ text: String) throws -> PINChange {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(parts.count) else { throw ValidationError("expected CANCEL or CANCEL:DURESS") }
        let cancel = try pin(parts[0])
        let duress = try parts.count == 2 ? pin(parts[1]) : nil
        // The watchdog refuses it too, but a duress PIN equal to the cancel PIN would make every
        // cancel a duress: worth stopping here with a clear word.
        guard duress != cancel else { throw ValidationError("the duress PIN must differ from the cancel PIN") }
        return PINChange(cancel: cancel, duress: duress)
    }

    /// A note the watchdog keeps: it drops (never refuses) any other, and a demo should not
    /// silently lose what it meant to show.
    static func note(_ text: String) throws -> String {
        if let note = CryForHelp.usableNote(text) { return note }
        let length = text.trimmingCharacters(in: .whitespacesAndNewlines).count
        if length == 0 { throw ValidationError("a note must not be empty") }
        if length > CryForHelp.maxNoteLength {
            throw ValidationError("a note is at most \(CryForHelp.maxNoteLength) characters (this one has \(length))")
        }
        throw ValidationError("a note must not contain control characters")
    }
}
