import Foundation
import Testing

@testable import SafeWalkCore

/// The fast scanner may decline anything, but whatever it accepts must be exactly what
/// Foundation's decoder makes of the same bytes.
@Suite struct FlatFixScannerTests {
    static let seeds = [
        #"{"_type":"location","acc":10,"alt":152,"batt":76,"bs":1,"conn":"w","created_at":1700000001,"lat":30.2849,"lon":-97.7341,"m":1,"t":"u","tid":"al","tst":1700000000,"vac":3,"vel":4}"#,
        #"{"v":1,"lat":-33.8688,"lon":151.2093,"tst":1700000000.25,"acc":4.5}"#,
        #" { "_type" : "location" , "v" : 1 , "lat" : 0 , "lon" : -0.0 , "tst" : 17E8 , "inregions" : [ "home" , "work" ] , "x" : { "a" : [ true , false , 1e-3 ] } } "#,
        #"{"_type":"location","lat":90,"lon":180,"tst":1.7e9,"topic":"owntracks/alice/phone","inrids":[]}"#,
    ]

    func scan(_ data: Data) -> LocationFix? { data.withUnsafeBytes(FlatFixScanner.scan) }

    func foundation(_ data: Data) -> FixOutcome? { try? FixDecoder.parseWithFoundation(data) }

    @Test(arguments: seeds)
    func readsTheCommonShapesItself(_ text: String) throws {
        let data = Data(text.utf8)
        let fast = try #require(scan(data), "the scanner declined a plain fix")
        #expect(foundation(data) == .fix(fast))
    }

    @Test(arguments: [
        #"{"lat":1,"lon":2,"tst":3}"#,  // no v, no _type
        #"{"v":2,"lat":1,"lon":2,"tst":3}"#,  // wrong version
        #"{"v":1.0,"lat":1,"lon":2,"tst":3}"#,  // v spelled unusually
        #"{"_type":"lwt","tst":3}"#,  // ignored type
        #"{"v":1,"lat":1,"lat":5,"lon":2,"tst":3}"#,  // duplicated field
        #"{"v":1,"lat":1e400,"lon":2,"tst":3}"#,  // not a finite Double
        #"{"v":1,"lat":null,"lon":2,"tst":3}"#,  // null
        #"{"v":1,"lat":"1","lon":2,"tst":3}"#,  // string for a number
        #"{"v":1,"l\u0061t":1,"lon":2,"tst":3}"#,  // escaped key
        #"{"v":1,"lat":1,"lon":2,"tst":3,"tid":"é"}"#,  // non-ASCII string
        #"{"v":1,"lat":01,"lon":2,"tst":3}"#,  // not JSON
        #"{"v":1,"lat":1,"lon":2,"tst":3} x"#,  // trailing garbage
        "\u{FEFF}{\"v\":1,\"lat\":1,\"lon\":2,\"tst\":3}",  // byte order mark
        #"{"v":1,"lat":1,"lon":2,"tst":3,"deep":[[[[[[[[[[1]]]]]]]]]]}"#,  // nesting
    ])
    func declinesWhatItDoesNotFullyUnderstand(_ text: String) {
        #expect(scan(Data(text.utf8)) == nil)
    }

    /// Truncations, deletions and byte substitutions of every seed, plus random multi-byte
    /// mutations: the scanner agrees with Foundation on every payload it accepts.
    @Test func agreesWithFoundationOnMutatedPayloads() {
        var random = SeededRandom(seed: 0x5AFE_3A1C)
        let interesting = Array(#"{}[]":,.-+eE019 \"#.utf8) + [0x00, 0x7F, 0x80, 0xC3, 0xFF]
        var checked = 0
        var accepted = 0
        func check(_ bytes: [UInt8]) {
            let data = Data(bytes)
            checked += 1
            guard let fast = scan(data) else { return }
            accepted += 1
            #expect(foundation(data) == .fix(fast), "\(String(decoding: bytes, as: UTF8.self))")
        }
        for seed in Self.seeds.map({ Array($0.utf8) }) {
            for end in 0...seed.count { check(Array(seed[..<end])) }
            for i in seed.indices {
                var deleted = seed
                deleted.remove(at: i)
                check(deleted)
                for byte in interesting where byte != seed[i] {
                    var replaced = seed
                    replaced[i] = byte
                    check(replaced)
                }
            }
            for _ in 0..<3_000 {
                var mutated = seed
                for _ in 0..<Int(random.next() % 3 + 1) {
                    let at = Int(random.next() % UInt64(mutated.count))
                    let byte = interesting[Int(random.next() % UInt64(interesting.count))]
                    if random.next() % 2 == 0 { mutated[at] = byte } else { mutated.insert(byte, at: at) }
                }
                check(mutated)
            }
        }
        // Both branches were exercised: most mutations break the payload, some do not.
        #expect(checked > 20_000)
        #expect(accepted > 1_000)
    }
}
