import Foundation

/// Mechanical mutations of one valid JSON seed. Each is a candidate: whether a service really
/// refuses it is decided by that service's own decoder (the corpus drops what it accepts), never
/// assumed here.
public struct JSONMutations: Sendable {
    public typealias Mutation = (family: HostileFamily, label: String, bytes: [UInt8])
    let seed: RawJSON

    public init(seed: RawJSON) { self.seed = seed }

    public var all: [Mutation] {
        truncations + typeSwaps + removals + numbersAsStrings + hugeNumbers + nonFinite + deepNesting + longStrings
            + invalidUTF8 + wrongVersions + notObjects
    }

    /// The seed cut short at about 40 offsets spread over its length (every strict prefix of an
    /// object is unbalanced). Offset 0 is the empty payload.
    var truncations: [Mutation] {
        let bytes = seed.bytes
        let step = max(1, bytes.count / 40)
        return stride(from: 0, to: bytes.count, by: step).map { (.truncation, "cut at \($0)", Array(bytes.prefix($0))) }
    }

    private var paths: [(path: [RawJSON.PathStep], value: RawJSON)] { seed.leaves }

    private func label(_ path: [RawJSON.PathStep]) -> String { path.map(\.description).joined(separator: ".") }

    private func replacing(_ path: [RawJSON.PathStep], _ value: RawJSON?) -> [UInt8] {
        seed.replacing(path[...], with: value).bytes
    }

    /// Every value, in turn, replaced by a value of every other JSON type.
    var typeSwaps: [Mutation] {
        let others: [(String, RawJSON)] = [
            ("string", .string("x")), ("number", .number(1)), ("bool", .bool(true)), ("null", .null),
            ("array", .array([])), ("object", .object([])),
        ]
        return paths.flatMap { path, value in
            others.filter { !Self.sameType($0.1, value) }.map { name, swapped in
                (.typeSwap, "\(label(path)) → \(name)", replacing(path, swapped))
            }
        }
    }

    /// Every member removed, in turn (required ones must be missed).
    var removals: [Mutation] {
        paths.filter { if case .member = $0.path.last { true } else { false } }
            .map { path, _ in (.missingField, "without \(label(path))", replacing(path, nil)) }
    }

    /// `"lat": "30.2849"`: numbers written as strings.
    var numbersAsStrings: [Mutation] {
        paths.compactMap { path, value in
            guard case .number(let literal) = value else { return nil }
            return (.numberAsString, "\(label(path)) as \"\(literal)\"", replacing(path, .string(literal)))
        }
    }

    /// Numbers at and beyond what a Double or an Int holds.
    var hugeNumbers: [Mutation] {
        let literals = [
            "1e308", "-1e308", "1e400", "-1e400", "123456789012345678901234567890", "1.7976931348623157e309",
        ]
        return numberPaths.flatMap { path in
            literals.map { (.hugeNumber, "\(label(path)) = \($0)", replacing(path, .number($0))) }
        }
    }

    /// Literals JSON does not have, which some parsers accept anyway.
    var nonFinite: [Mutation] {
        let literals = ["NaN", "Infinity", "-Infinity", "nan", "inf", "-inf"]
        return numberPaths.flatMap { path in
            literals.map { (.nonFinite, "\(label(path)) = \($0)", replacing(path, .number($0))) }
        }
    }

    private var numberPaths: [[RawJSON.PathStep]] {
        paths.compactMap { path, value in if case .number = value { path } else { nil } }
    }

    /// 10,000 levels of nesting in place of the first field, balanced and unbalanced, and a
    /// whole document nested 10,000 deep.
    var deepNesting: [Mutation] {
        guard let first = paths.first?.path else { return [] }
        let depth = 10_000
        let open = [UInt8](repeating: UInt8(ascii: "["), count: depth)
        let close = [UInt8](repeating: UInt8(ascii: "]"), count: depth)
        let objects =
            Array(String(repeating: #"{"a":"#, count: depth).utf8) + Array("1".utf8)
            + [UInt8](repeating: UInt8(ascii: "}"), count: depth)
        return [
            (.deepNesting, "\(label(first)) = [×\(depth) balanced", replacing(first, .raw(open + close))),
            (.deepNesting, "\(label(first)) = [×\(depth) unclosed", replacing(first, .raw(open))),
            (.deepNesting, "\(label(first)) = {\"a\": ×\(depth)", replacing(first, .raw(objects))),
            (.deepNesting, "document in [×\(depth)", open + seed.bytes + close),
        ]
    }

    /// Every string field 70 KiB and 200 KiB long (over every service's own limit, under the
    /// broker's 256 KiB), and 2,500 characters (5 KB), which fits most size limits but no text
    /// limit. Two-byte characters, so a limit counted in bytes and one in characters differ.
    var longStrings: [Mutation] {
        paths.flatMap { path, value -> [Mutation] in
            guard case .string = value else { return [] }
            return [2_500, 35 * 1024, 100 * 1024].map { characters in
                (
                    .longString, "\(label(path)) \(characters) × é",
                    replacing(path, .string(String(repeating: "é", count: characters)))
                )
            }
        }
    }

    /// Invalid UTF-8 inside every string, and in place of the first value.
    var invalidUTF8: [Mutation] {
        let sequences: [(String, [UInt8])] = [
            ("FF", [0xFF]), ("lone continuation", [0x80]), ("truncated 2-byte", [0xC3]),
            ("overlong slash", [0xC0, 0xAF]), ("surrogate", [0xED, 0xA0, 0x80]),
            ("above U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
        ]
        var mutations: [Mutation] = []
        for (path, value) in paths {
            guard case .string(let text) = value else { continue }
            for (name, bad) in sequences {
                let quoted =
                    [UInt8(ascii: "\"")] + Array(text.utf8.prefix(3)) + bad + Array(text.utf8.dropFirst(3)) + [
                        UInt8(ascii: "\"")
                    ]
                mutations.append((.invalidUTF8, "\(label(path)) with \(name)", replacing(path, .raw(quoted))))
            }
        }
        if let first = paths.first?.path {
            mutations += sequences.map { name, bad in
                (.invalidUTF8, "\(label(first)) = bare \(name)", replacing(first, .raw(bad)))
            }
        }
        return mutations
    }

    /// `v` of every wrong kind, missing, repeated; OwnTracks seeds (no `v`) get one added.
    var wrongVersions: [Mutation] {
        let wrong: [(String, RawJSON)] = [
            ("0", .number(0)), ("2", .number(2)), ("-1", .number(-1)), ("1.5", .number("1.5")), ("\"1\"", .string("1")),
            ("true", .bool(true)), ("null", .null), ("1e308", .number("1e308")), ("[1]", .array([.number(1)])),
            ("{}", .object([])), ("99999999999999999999", .number("99999999999999999999")),
        ]
        guard case .object(let members) = seed else { return [] }
        guard let index = members.firstIndex(where: { $0.key == "v" }) else {
            return wrong.map { name, value in
                (.wrongVersion, "added v = \(name)", seed.appending(.init("v", value)).bytes)
            }
        }
        let path: [RawJSON.PathStep] = [.member(index, "v")]
        return wrong.map { name, value in (.wrongVersion, "v = \(name)", replacing(path, value)) }
            + [(.wrongVersion, "v then v = 2", seed.appending(.init("v", .number(2))).bytes)]
    }

    /// Valid JSON that is not an object, and the seed inside an array.
    var notObjects: [Mutation] {
        ["null", "[]", "{}", "0", "-1", "true", "\"online\"", " ", "\n", "[{}]"].map {
            (.notAnObject, "document \($0)", Array($0.utf8))
        }
            + [(.notAnObject, "seed in an array", Array("[".utf8) + seed.bytes + Array("]".utf8))]
    }

    static func sameType(_ a: RawJSON, _ b: RawJSON) -> Bool {
        switch (a, b) {
        case (.string, .string), (.number, .number), (.bool, .bool), (.null, .null), (.array, .array),
            (.object, .object):
            true
        default: false
        }
    }
}
