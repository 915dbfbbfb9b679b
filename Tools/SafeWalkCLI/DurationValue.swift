import ArgumentParser
import Foundation

/// A command-line duration: `30s`, `2m`, `1h`, `500ms`, or a bare number of seconds (`1.5`).
public struct DurationValue: Hashable, Sendable, ExpressibleByArgument, CustomStringConvertible {
    public var seconds: Double

    public init(seconds: Double) { self.seconds = seconds }

    /// Nil for anything that is not a finite, non-negative duration with a known unit.
    public init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(suffix: String, factor: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        var number = Substring(text)
        var factor = 1.0
        for unit in units where text.hasSuffix(unit.suffix) {
            number = text.dropLast(unit.suffix.count)
            factor = unit.factor
            break
        }
        // Double("inf"/"nan"/"0x1p3") parses; a duration must be plain decimal digits.
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(number), value.isFinite, value >= 0
        else { return nil }
        seconds = value * factor
    }

    public var description: String { CLIError.seconds(seconds) }

    public static var defaultCompletionKind: CompletionKind { .default }
}
