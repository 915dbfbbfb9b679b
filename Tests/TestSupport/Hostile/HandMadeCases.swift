import Foundation

/// Cases no mechanical mutation makes: syntax other parsers forgive, duplicate keys, padding to
/// each service's size limit, and values that are well-typed but absurd for their field.
public struct HandMadeCases: Sendable {
    public typealias Case = (family: HostileFamily, label: String, bytes: [UInt8])
    let samples: ValidSamples

    public init(samples: ValidSamples) { self.samples = samples }

    /// The size limits in force somewhere (ingest 8 KiB, watchdog 16 KiB, chat 8 KiB, notifier
    /// 16 KiB / 64 KiB, contacts-store 4 KiB): each seed is padded to one byte over each.
    public static let serviceLimits = [4 * 1024, 8 * 1024, 16 * 1024, 64 * 1024]

    public func cases(_ kind: InputKind) -> [Case] {
        if kind == .presence { return presence }
        return samples.json(kind).flatMap { seed in syntax(seed) + duplicates(seed) + padding(seed) + numberSyntax(seed)
        }
            + semantic(kind)
    }

    /// Presence is plain text, `online` or `offline` (surrounding whitespace allowed).
    var presence: [Case] {
        let texts = [
            "ONLINE", "Offline", "onlin", "on line", "online.", "\"online\"", #"{"v":1,"state":"online"}"#, "1", "true",
            "null", "online offline", "\u{FEFF}online", "online\u{0}", "\u{200B}online", "öffline", "onlineonline",
        ]
        return texts.map { (.handMade, "presence \($0.debugDescription)", Array($0.utf8)) }
            + [
                (.handMade, "presence FF online", [0xFF] + Array("online".utf8)),
                (
                    .handMade, "presence online + 20 KiB of spaces",
                    Array("online".utf8) + [UInt8](repeating: 0x20, count: 20 * 1024)
                ),
                (.handMade, "presence 200 KiB", [UInt8](repeating: UInt8(ascii: "o"), count: 200 * 1024)),
            ]
    }

    /// Syntax that is not JSON, around an otherwise valid seed.
    func syntax(_ seed: RawJSON) -> [Case] {
        let bytes = seed.bytes
        let text = String(decoding: bytes, as: UTF8.self)
        return [
            (.handMade, "UTF-8 BOM then seed", [0xEF, 0xBB, 0xBF] + bytes),
            (.handMade, "UTF-16 BOM then seed", [0xFE, 0xFF] + bytes),
            (.handMade, "seed then garbage", bytes + Array("garbage".utf8)),
            (.handMade, "seed then }", bytes + Array("}".utf8)),
            (.handMade, "seed then NUL", bytes + [0]),
            (.handMade, "seed twice", bytes + bytes),
            (.handMade, "garbage then seed", Array("x".utf8) + bytes),
            (.handMade, "single quotes", Array(text.replacingOccurrences(of: "\"", with: "'").utf8)),
            (.handMade, "comment before", Array("/* hi */".utf8) + bytes),
            (.handMade, "comment after", bytes + Array(" // hi".utf8)),
            (.handMade, "trailing comma", Array(bytes.dropLast()) + Array(",}".utf8)),
            (
                .handMade, "unquoted keys",
                Array(text.replacingOccurrences(of: #""([A-Za-z_]+)":"#, with: "$1:", options: .regularExpression).utf8)
            ),
            (.handMade, "missing closing brace", Array(bytes.dropLast())),
            (.handMade, "UTF-16 encoded", Array(text.data(using: .utf16BigEndian) ?? Data())),
        ]
    }

    /// Each top-level key repeated with a wrong-typed value after the good one, and before it.
    func duplicates(_ seed: RawJSON) -> [Case] {
        guard case .object(let members) = seed else { return [] }
        return members.flatMap { member -> [Case] in
            let bad: RawJSON = if case .string = member.value { .array([]) } else { .string("x") }
            let after = RawJSON.object(members + [.init(member.key, bad)])
            let before = RawJSON.object([.init(member.key, bad)] + members)
            return [
                (.handMade, "\(member.key) repeated, bad last", after.bytes),
                (.handMade, "\(member.key) repeated, bad first", before.bytes),
            ]
        }
    }

    /// An unknown `pad` field making the payload exactly each limit, and one byte over it.
    func padding(_ seed: RawJSON) -> [Case] {
        let base = seed.appending(.init("pad", .string(""))).bytes.count
        return Self.serviceLimits.flatMap { limit in
            [limit, limit + 1].compactMap { size -> Case? in
                guard size > base else { return nil }
                return (
                    .oversize, "padded to \(size) bytes",
                    seed.appending(.init("pad", .string(String(repeating: "p", count: size - base)))).bytes
                )
            }
        }
    }

    /// Number spellings JSON forbids, in place of each number.
    func numberSyntax(_ seed: RawJSON) -> [Case] {
        let spellings = ["+1", "01", "0x1F", ".5", "1.", "1e", "--1", "1_000", "1,5", "٣"]
        return seed.leaves.flatMap { path, value -> [Case] in
            guard case .number = value else { return [] }
            let name = path.map(\.description).joined(separator: ".")
            return spellings.map { (.handMade, "\(name) = \($0)", seed.replacing(path[...], with: .number($0)).bytes) }
        }
    }

    /// Well-formed values that are wrong for their field.
    func semantic(_ kind: InputKind) -> [Case] {
        let now = samples.now.rounded()
        let absurdTimes: [(String, Double)] = [
            ("0", 0), ("-1", -1), ("1e15", 1e15), ("an hour ahead", now + 3_600), ("a day ago", now - 86_400),
            ("year 9999", 253_402_300_799),
        ]
        let coordinates: [(String, String, Double)] = [
            ("lat", "90.0001", 90.0001), ("lat", "-90.5", -90.5), ("lat", "1000", 1000), ("lon", "180.1", 180.1),
            ("lon", "-181", -181), ("acc", "-1", -1), ("acc", "-1e308", -1e308),
        ]
        guard let seed = samples.json(kind).first else { return [] }
        func set(_ key: String, _ value: RawJSON) -> [UInt8] {
            guard case .object(var members) = seed else { return seed.bytes }
            if let index = members.firstIndex(where: { $0.key == key }) {
                members[index].value = value
            } else {
                members.append(.init(key, value))
            }
            return RawJSON.object(members).bytes
        }
        switch kind {
        case .fix, .owntracks, .position:
            return coordinates.map { key, name, value in (.handMade, "\(key) = \(name)", set(key, .number(value))) }
                + absurdTimes.map { name, value in (.handMade, "tst \(name)", set("tst", .number(value))) }
        case .action:
            return ["PANIC", "", "delete", "start ", "startwalk"].map {
                (.handMade, "action \($0.debugDescription)", set("action", .string($0)))
            }
                + ["0", "-5", "-0.0"].map { (.handMade, "walk minutes \($0)", set("minutes", .number($0))) }
                + [
                    (.handMade, "id empty", set("id", .string(""))),
                    (.handMade, "id 200 chars", set("id", .string(String(repeating: "i", count: 200)))),
                    (.handMade, "id with BEL", set("id", .string("a\u{7}b"))),
                    (.handMade, "id with newline", set("id", .string("a\nb"))),
                ]
        case .prompt:
            return [
                (.handMade, "id empty", set("id", .string(""))),
                (.handMade, "id 200 chars", set("id", .string(String(repeating: "p", count: 200)))),
            ]
        case .escalation:
            return [
                (.handMade, "walker someone else", set("walker", .string("someone-else"))),
                (.handMade, "walker a b", set("walker", .string("a b"))),
                (.handMade, "walker empty", set("walker", .string(""))),
                (.handMade, "walker _rejected", set("walker", .string("_rejected"))),
                (.handMade, "id empty", set("id", .string(""))),
                (.handMade, "id with space", set("id", .string("a b"))),
                (.handMade, "id 200 chars", set("id", .string(String(repeating: "e", count: 200)))),
                (.handMade, "id é", set("id", .string("é"))),
                (.handMade, "reason fire", set("reason", .string("fire"))),
                (.handMade, "level green", set("level", .string("green"))),
                (.handMade, "level RED", set("level", .string("RED"))),
            ]
        case .contacts:
            let one = RawJSON.object([
                "id": .string("c"), "name": .string("N"), "phone": .string("+15125550100"), "dialable": .bool(true),
            ])
            return [
                (.handMade, "51 contacts", set("contacts", .array(Array(repeating: one, count: 51)))),
                (
                    .handMade, "contact reason unknown",
                    set("contacts", .array([one.appending(.init("reason", .string("tooFunny")))]))
                ),
                (.handMade, "contacts an object", set("contacts", .object(["a": one]))),
            ]
        case .reply:
            return [
                (.handMade, "text 2,001 ASCII", set("text", .string(String(repeating: "a", count: 2_001)))),
                (.handMade, "text only control characters", set("text", .string("\u{1}\u{2}\u{7f}"))),
            ]
        case .presence, .contactsAdd, .contactsRemove:
            return []
        }
    }
}
