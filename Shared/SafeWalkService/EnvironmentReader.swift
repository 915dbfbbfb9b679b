import Foundation

/// Reads `SAFEWALK_*` settings from an environment dictionary, with defaults and clear errors.
/// Takes the dictionary rather than reading the process environment, so tests pass their own.
public struct EnvironmentReader: Sendable {
    public let values: [String: String]

    public init(_ values: [String: String]) {
        self.values = values
    }

    /// The trimmed value, or nil when unset or blank.
    public func string(_ name: String) -> String? {
        guard let raw = values[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        return raw
    }

    public func string(_ name: String, default fallback: String) -> String {
        string(name) ?? fallback
    }

    public func integer(_ name: String, default fallback: Int, in range: ClosedRange<Int>) throws(ConfigurationError)
        -> Int
    {
        guard let raw = string(name) else { return fallback }
        guard let value = Int(raw), range.contains(value) else {
            throw .invalid(name: name, value: raw, expected: "an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// Seconds as a decimal number (`0.5` allowed), finite and greater than zero.
    public func seconds(_ name: String, default fallback: Double) throws(ConfigurationError) -> Double {
        try positiveNumber(name, default: fallback, expected: "a number of seconds greater than 0")
    }

    /// Seconds where 0 is meaningful (a delay that can be switched off).
    public func secondsOrZero(_ name: String, default fallback: Double) throws(ConfigurationError) -> Double {
        try number(name, default: fallback, expected: "a number of seconds, 0 or more") { $0 >= 0 }
    }

    public func positiveNumber(
        _ name: String, default fallback: Double,
        expected: String = "a number greater than 0"
    ) throws(ConfigurationError) -> Double {
        try number(name, default: fallback, expected: expected) { $0 > 0 }
    }

    private func number(
        _ name: String, default fallback: Double, expected: String, accepting accepts: (Double) -> Bool
    ) throws(ConfigurationError) -> Double {
        guard let raw = string(name) else { return fallback }
        guard let value = Double(raw), value.isFinite, accepts(value) else {
            throw .invalid(name: name, value: raw, expected: expected)
        }
        return value
    }

    public func boolean(_ name: String, default fallback: Bool) throws(ConfigurationError) -> Bool {
        guard let raw = string(name)?.lowercased() else { return fallback }
        switch raw {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw .invalid(name: name, value: raw, expected: "true or false")
        }
    }

    /// A comma-separated list, trimmed, empty entries dropped.
    public func list(_ name: String, default fallback: [String]) -> [String] {
        guard let raw = string(name) else { return fallback }
        return raw.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

/// A setting that cannot work. The message names the variable, so an operator can fix it.
public enum ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalid(name: String, value: String, expected: String)
    case missing(name: String, why: String)

    public var description: String {
        switch self {
        case .invalid(let name, let value, let expected): "\(name)='\(value)' is invalid: expected \(expected)"
        case .missing(let name, let why): "\(name) must be set: \(why)"
        }
    }
}
