/// A single pass over the bytes of a plain, well-formed location payload or reply — what every
/// phone sends — without building a JSON tree.
///
/// It only ever answers for payloads it fully understands and otherwise returns `nil`, and
/// then ``FixDecoder`` (or ``ReplyIntake``) asks Foundation's `JSONDecoder`, which stays the
/// arbiter of every rule and every error code. So it bails out on anything unusual: escapes in
/// strings, non-ASCII bytes anywhere but a reply's `text` (which must be valid UTF-8), `null`, a
/// duplicated field we read, a number `Double` cannot hold, any `_type` other than `location`, a
/// `v` other than a plain `1`, a missing field, nesting deeper than ``maxDepth``, or anything
/// after the closing brace. A differential test (and the fuzz target)
/// holds it to the same answers as the full decoder.
///
/// Why it exists: Foundation decoded a 230-byte OwnTracks fix in ~10 µs, most of ingest's CPU
/// per fix in the benchmark; this takes ~1 µs.
enum FlatFixScanner {
    static let maxDepth = 8

    static func scan(_ bytes: UnsafeRawBufferPointer) -> LocationFix? {
        var reader = Reader(bytes: bytes)
        return reader.readFields().flatMap(Self.fix)
    }

    /// A ``PositionUpdate`` as location-ingest writes it (our format: `v`, the fix, `moved`,
    /// `lastMovedAt`), or nil to leave it to the full decoder. The watchdog reads one per fix.
    static func scanPosition(_ bytes: UnsafeRawBufferPointer) -> PositionUpdate? {
        var reader = Reader(bytes: bytes)
        guard let fields = reader.readFields(), fields.hasVersion, let fix = fix(fields),
            let moved = fields.moved, let lastMovedAt = fields.lastMovedAt
        else { return nil }
        return PositionUpdate(fix: fix, moved: moved, lastMovedAt: lastMovedAt)
    }

    /// A ``Reply`` as phones send it (`v`, `text`, `tst`, `quickReply` when tapped), or nil to
    /// leave it to the full decoder. Both readers of `{w}/reply` decode every reply
    /// (``ReplyIntake``): Foundation's decoder was most of what a reply cost them (issue 22).
    /// The text may hold any UTF-8 (a quick reply's emoji) but no escape: one is left to the
    /// full decoder, as everything else this scanner is unsure of.
    static func scanReply(_ bytes: UnsafeRawBufferPointer) -> Reply? {
        var reader = Reader(bytes: bytes)
        guard let fields = reader.readFields(), fields.hasVersion, !fields.hasType, let text = fields.text,
            let tst = fields.tst
        else { return nil }
        return Reply(text: text, quickReply: fields.quickReply, tst: tst)
    }

    private static func fix(_ fields: Fields) -> LocationFix? {
        // Without `_type` our own format requires `v`; the full decoder words the errors.
        guard fields.hasType ? fields.isLocation : fields.hasVersion,
            let lat = fields.lat, let lon = fields.lon, let tst = fields.tst
        else { return nil }
        return LocationFix(
            lat: lat, lon: lon, tst: tst, acc: fields.acc, alt: fields.alt, vel: fields.vel, batt: fields.batt)
    }

    private struct Fields {
        var isLocation = false
        var hasType = false
        var hasVersion = false
        var lat: Double?
        var lon: Double?
        var tst: Double?
        var acc: Double?
        var alt: Double?
        var vel: Double?
        var batt: Double?
        var moved: Bool?
        var lastMovedAt: Double?
        var text: String?
        var quickReply: Bool?
    }

    private enum Key { case type, v, lat, lon, tst, acc, alt, vel, batt, moved, lastMovedAt, text, quickReply, other }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func readFields() -> Fields? {
            skipWhitespace()
            guard take(UInt8(ascii: "{")) else { return nil }
            var fields = Fields()
            skipWhitespace()
            if !take(UInt8(ascii: "}")) {
                repeat {
                    skipWhitespace()
                    guard let key = readKey() else { return nil }
                    skipWhitespace()
                    guard take(UInt8(ascii: ":")) else { return nil }
                    skipWhitespace()
                    guard read(key, into: &fields) else { return nil }
                    skipWhitespace()
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: "}")) else { return nil }
            }
            skipWhitespace()
            guard index == bytes.count else { return nil }
            return fields
        }

        /// Reads the value of `key`; false means "not sure, ask the full decoder".
        private mutating func read(_ key: Key, into fields: inout Fields) -> Bool {
            switch key {
            case .other: return skipValue(depth: 1)
            case .type:
                guard !fields.hasType, let value = readPlainString() else { return false }
                fields.hasType = true
                fields.isLocation = value.elementsEqual("location".utf8)
                return fields.isLocation
            case .v:
                guard !fields.hasVersion, let number = readNumberBytes(),
                    number.count == 1, number.first == UInt8(ascii: "1")
                else { return false }
                fields.hasVersion = true
                return true
            case .lat: return store(&fields.lat)
            case .lon: return store(&fields.lon)
            case .tst: return store(&fields.tst)
            case .acc: return store(&fields.acc)
            case .alt: return store(&fields.alt)
            case .vel: return store(&fields.vel)
            case .batt: return store(&fields.batt)
            case .lastMovedAt: return store(&fields.lastMovedAt)
            case .moved: return store(&fields.moved)
            case .quickReply: return store(&fields.quickReply)
            case .text:
                guard fields.text == nil, let text = readUTF8String() else { return false }
                fields.text = text
                return true
            }
        }

        private mutating func store(_ field: inout Bool?) -> Bool {
            guard field == nil else { return false }
            if literal("true") {
                field = true
            } else if literal("false") {
                field = false
            }
            return field != nil
        }

        private mutating func store(_ field: inout Double?) -> Bool {
            guard field == nil, let number = readNumberBytes(), let value = Self.double(number) else { return false }
            field = value
            return true
        }

        private static func double(_ number: UnsafeRawBufferPointer) -> Double? {
            // Short numbers fit a small string (no allocation); `Double(_:)` rounds correctly.
            guard let value = Double(String(decoding: number, as: UTF8.self)), value.isFinite else { return nil }
            return value
        }

        private mutating func readKey() -> Key? {
            guard let name = readPlainString() else { return nil }
            switch name.count {
            case 1 where name[0] == UInt8(ascii: "v"): return .v
            case 3:
                if name.elementsEqual("lat".utf8) { return .lat }
                if name.elementsEqual("lon".utf8) { return .lon }
                if name.elementsEqual("tst".utf8) { return .tst }
                if name.elementsEqual("acc".utf8) { return .acc }
                if name.elementsEqual("alt".utf8) { return .alt }
                if name.elementsEqual("vel".utf8) { return .vel }
                return .other
            case 4 where name.elementsEqual("batt".utf8): return .batt
            case 4 where name.elementsEqual("text".utf8): return .text
            case 10 where name.elementsEqual("quickReply".utf8): return .quickReply
            case 5 where name.elementsEqual("_type".utf8): return .type
            case 5 where name.elementsEqual("moved".utf8): return .moved
            case 11 where name.elementsEqual("lastMovedAt".utf8): return .lastMovedAt
            default: return .other
            }
        }

        /// A string of printable ASCII without escapes; its bytes between the quotes.
        private mutating func readPlainString() -> UnsafeRawBufferPointer? { readStringBytes(asciiOnly: true) }

        /// A string without escapes or control characters, of valid UTF-8 (nil otherwise).
        private mutating func readUTF8String() -> String? {
            readStringBytes(asciiOnly: false).flatMap { String(validating: $0, as: UTF8.self) }
        }

        /// The bytes between the quotes of a string with no escape and no control character
        /// (and, if `asciiOnly`, no byte from 0x80); nil for any other.
        private mutating func readStringBytes(asciiOnly: Bool) -> UnsafeRawBufferPointer? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    defer { index += 1 }
                    return UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                }
                guard byte >= 0x20, byte != UInt8(ascii: "\\"), !asciiOnly || byte < 0x80 else { return nil }
                index += 1
            }
            return nil
        }

        /// The bytes of a number in strict JSON grammar: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
        private mutating func readNumberBytes() -> UnsafeRawBufferPointer? {
            let start = index
            _ = take(UInt8(ascii: "-"))
            if take(UInt8(ascii: "0")) {
                // no further integer digits allowed after a leading zero
            } else {
                guard digits() > 0 else { return nil }
            }
            if take(UInt8(ascii: ".")) {
                guard digits() > 0 else { return nil }
            }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                guard digits() > 0 else { return nil }
            }
            // A digit right after the number (as in `01`) is not JSON.
            if index < bytes.count, Self.isDigit(bytes[index]) { return nil }
            return UnsafeRawBufferPointer(rebasing: bytes[start..<index])
        }

        /// Skips a value we do not read: scalars, and arrays/objects of them up to ``maxDepth``.
        private mutating func skipValue(depth: Int) -> Bool {
            guard index < bytes.count, depth <= FlatFixScanner.maxDepth else { return false }
            switch bytes[index] {
            case UInt8(ascii: "\""): return readPlainString() != nil
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "["):
                index += 1
                skipWhitespace()
                if take(UInt8(ascii: "]")) { return true }
                repeat {
                    skipWhitespace()
                    guard skipValue(depth: depth + 1) else { return false }
                    skipWhitespace()
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "]"))
            case UInt8(ascii: "{"):
                index += 1
                skipWhitespace()
                if take(UInt8(ascii: "}")) { return true }
                repeat {
                    skipWhitespace()
                    guard readPlainString() != nil else { return false }
                    skipWhitespace()
                    guard take(UInt8(ascii: ":")) else { return false }
                    skipWhitespace()
                    guard skipValue(depth: depth + 1) else { return false }
                    skipWhitespace()
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "}"))
            default:
                // `null` is left to the full decoder, as are numbers Double cannot hold.
                guard let number = readNumberBytes() else { return false }
                // Without an exponent a number needs ~309 digits to overflow a Double: only
                // then is it worth converting just to check (most skipped fields are short).
                let plain =
                    number.count < 300 && !number.contains(UInt8(ascii: "e")) && !number.contains(UInt8(ascii: "E"))
                return plain || Self.double(number) != nil
            }
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        private mutating func digits() -> Int {
            let start = index
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
            return index - start
        }

        private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }
    }
}
