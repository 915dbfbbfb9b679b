import Foundation

/// A JSON document as a tree that can also hold what JSON cannot: a number is kept as the literal
/// text it is written with (`1e400`, `NaN`, `007`), and `.raw` bytes are written verbatim (invalid
/// UTF-8, unbalanced brackets). So a mutation states exactly the bytes it means, and the encoder
/// never "fixes" them. Objects keep their members' order and may repeat a key.
public indirect enum RawJSON: Sendable, Equatable {
    case object([Member])
    case array([RawJSON])
    case string(String)
    /// A number literal, written as given.
    case number(String)
    case bool(Bool)
    case null
    /// Bytes written as they are, in place of a value.
    case raw([UInt8])

    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: RawJSON
        public init(_ key: String, _ value: RawJSON) {
            self.key = key
            self.value = value
        }
    }

    /// An object from key–value pairs, in order.
    public static func object(_ pairs: KeyValuePairs<String, RawJSON>) -> RawJSON {
        .object(pairs.map { Member($0.key, $0.value) })
    }

    public static func number(_ value: Double) -> RawJSON { .number("\(value)") }
    public static func number(_ value: Int) -> RawJSON { .number("\(value)") }

    /// The document's bytes: compact, members in order.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        write(into: &out)
        return out
    }

    public var data: Data { Data(bytes) }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .string(let text): Self.writeString(text, into: &out)
        case .number(let literal): out += Array(literal.utf8)
        case .bool(let value): out += Array((value ? "true" : "false").utf8)
        case .null: out += Array("null".utf8)
        case .raw(let bytes): out += bytes
        }
    }

    /// Escapes only what JSON requires (`"`, `\`, control characters); everything else is UTF-8.
    /// Works on the UTF-8 bytes: every byte of a multi-byte character is >= 0x80, so none is
    /// mistaken for one to escape (and 200 KiB strings stay cheap in debug builds).
    private static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        out.reserveCapacity(out.count + text.utf8.count + 1)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case 0..<0x20: out += Array(String(format: "\\u%04x", UInt32(byte)).utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension RawJSON {
    /// Every value in the tree with its path (object keys and array indices), depth first,
    /// the root excluded.
    public var leaves: [(path: [PathStep], value: RawJSON)] {
        var found: [(path: [PathStep], value: RawJSON)] = []
        func visit(_ value: RawJSON, _ path: [PathStep]) {
            if !path.isEmpty { found.append((path, value)) }
            switch value {
            case .object(let members):
                for (index, member) in members.enumerated() { visit(member.value, path + [.member(index, member.key)]) }
            case .array(let elements):
                for (index, element) in elements.enumerated() { visit(element, path + [.element(index)]) }
            default: break
            }
        }
        visit(self, [])
        return found
    }

    /// One step into a tree: the n-th member of an object (named, for labels) or an array element.
    public enum PathStep: Sendable, Equatable, CustomStringConvertible {
        case member(Int, String)
        case element(Int)
        public var description: String {
            switch self {
            case .member(_, let key): key
            case .element(let index): "\(index)"
            }
        }
    }

    /// The tree with the value at `path` replaced (or removed when `value` is nil).
    public func replacing(_ path: ArraySlice<PathStep>, with value: RawJSON?) -> RawJSON {
        guard let step = path.first else { return value ?? self }
        switch (self, step) {
        case (.object(var members), .member(let index, _)) where index < members.count:
            if path.count == 1, value == nil {
                members.remove(at: index)
            } else {
                members[index].value = members[index].value.replacing(path.dropFirst(), with: value)
            }
            return .object(members)
        case (.array(var elements), .element(let index)) where index < elements.count:
            if path.count == 1, value == nil {
                elements.remove(at: index)
            } else {
                elements[index] = elements[index].replacing(path.dropFirst(), with: value)
            }
            return .array(elements)
        default:
            return self
        }
    }

    /// The same object with `member` added at the end (a repeated key stays repeated).
    public func appending(_ member: Member) -> RawJSON {
        guard case .object(let members) = self else { return self }
        return .object(members + [member])
    }
}
