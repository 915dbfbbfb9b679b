import Foundation
import Testing

@testable import SafeWalkCore

/// `PositionUpdate.decode` reads location-ingest's own encoding in one pass and leaves the rest
/// to Foundation's decoder: either way the answer is the full decoder's.
@Suite struct PositionScanTests {
    static let written = PositionUpdate(
        fix: LocationFix(lat: 30.2862, lon: -97.7394, tst: 1_700_000_000.25, acc: 12, alt: 150, vel: 1.4, batt: 0.8),
        moved: true, lastMovedAt: 1_699_999_990.5)

    /// What location-ingest publishes takes the fast path, and reads back whole.
    @Test func ingestsOwnEncodingTakesTheFastPath() throws {
        for update in [
            Self.written,
            PositionUpdate(fix: LocationFix(lat: -1e-7, lon: 0, tst: 1, acc: nil), moved: false, lastMovedAt: 0),
        ] {
            let data = try SafeWalkJSON.encode(update)
            #expect(data.withUnsafeBytes(FlatFixScanner.scanPosition) == update)
            #expect(try PositionUpdate.decode(data) == update)
        }
    }

    @Test(arguments: [
        #"{"v":1,"lat":1,"lon":2,"tst":3,"moved":false,"lastMovedAt":3}"#,
        #" { "lastMovedAt" : 3 , "moved" : true , "tst" : 3 , "lon" : 2 , "lat" : 1 , "v" : 1 } "#,
        #"{"v":1,"lat":1,"lon":2,"tst":3,"moved":true,"lastMovedAt":3,"extra":{"a":[1,"b"]}}"#,
        #"{"v":1,"lat":1,"lon":2,"tst":3,"moved":"yes","lastMovedAt":3}"#,
        #"{"v":1,"lat":1,"lon":2,"tst":3,"moved":1,"lastMovedAt":3}"#,
        #"{"v":1,"lat":1,"lon":2,"tst":3,"moved":truex,"lastMovedAt":3}"#,
        #"{"v":1,"lat":1,"lon":2,"tst":3,"moved":true,"moved":false,"lastMovedAt":3}"#,
        #"{"v":1,"lat":1,"lon":2,"tst":3,"lastMovedAt":3}"#,
        #"{"v":1,"lat":1,"lon":2,"tst":3,"moved":true}"#,
        #"{"v":1,"lat":1,"lon":2,"tst":3,"moved":true,"lastMovedAt":null}"#,
        #"{"v":1,"lat":1,"lon":2,"tst":3,"moved":true,"lastMovedAt":1e400}"#,
        #"{"v":1,"lat":1,"lon":2,"tst":3,"moved":true,"lastMovedAt":"3"}"#,
        #"{"v":2,"lat":1,"lon":2,"tst":3,"moved":true,"lastMovedAt":3}"#,
        #"{"lat":1,"lon":2,"tst":3,"moved":true,"lastMovedAt":3}"#,
        #"{"_type":"location","lat":1,"lon":2,"tst":3,"moved":true,"lastMovedAt":3}"#,
        #"{"_type":"location","v":1,"lat":1,"lon":2,"tst":3,"moved":true,"lastMovedAt":3}"#,
        #"{"v":1,"lat":1,"lon":2,"moved":true,"lastMovedAt":3}"#,
        #"{"v":1,"lat":1,"lon":2,"tst":3,"moved":true,"lastMovedAt":3}x"#,
        #"[{"v":1}]"#, "", "{}",
    ])
    func agreesWithTheFullDecoder(payload: String) {
        let data = Data(payload.utf8)
        let full = Result { try SafeWalkJSON.decode(PositionUpdate.self, from: data) }
        let read = Result { try PositionUpdate.decode(data) }
        switch (full, read) {
        case (.success(let expected), .success(let actual)): #expect(actual == expected)
        case (.failure(let expected), .failure(let actual)):
            #expect(String(describing: actual) == String(describing: expected))
        default: Issue.record("full decoder \(full), PositionUpdate.decode \(read)")
        }
        // The fast path only ever answers what the full decoder answers.
        if let fast = data.withUnsafeBytes(FlatFixScanner.scanPosition) {
            #expect((try? full.get()) == fast)
        }
    }

    /// location-ingest writes positions with ``JSONObjectWriter``: what the shared encoder writes,
    /// optionals and all, and read back the same by both paths.
    @Test(arguments: [
        0, -0.0, 1_700_000_000.25, 30.2849, -97.7341, 1e-7, 123_456_789.123_456, 9_007_199_254_740_993, 1e300,
    ])
    func writesWhatTheSharedEncoderWrites(number: Double) throws {
        let updates = [
            PositionUpdate(
                fix: LocationFix(lat: number, lon: number, tst: number, acc: nil), moved: false, lastMovedAt: number),
            PositionUpdate(
                fix: LocationFix(lat: 1, lon: number, tst: 3, acc: number, alt: number, vel: number, batt: number),
                moved: true, lastMovedAt: 2),
            Self.written,
        ]
        for update in updates {
            let fast = try update.jsonPayload()
            // Byte for byte but where a reader cannot tell: the writer gives -0 as `0` and an
            // integral number from 2^53 on in exponent form.
            if number.sign == .plus, number < 9_007_199_254_740_992 {
                #expect(fast == (try SafeWalkJSON.encode(update)), "\(String(decoding: fast, as: UTF8.self))")
            }
            #expect(try PositionUpdate.decode(fast) == update)
            #expect(try SafeWalkJSON.decode(PositionUpdate.self, from: fast) == update)
        }
    }

    @Test func aNonFiniteNumberIsAnErrorAsWithTheSharedEncoder() {
        let update = PositionUpdate(fix: LocationFix(lat: .nan, lon: 0, tst: 1, acc: nil), moved: false, lastMovedAt: 1)
        #expect(throws: JSONObjectWriter.NonFiniteNumber.self) { try update.jsonPayload() }
        #expect(throws: (any Error).self) { try SafeWalkJSON.encode(update) }
    }

    @Test func refusesAnOversizedPayloadBeforeReadingIt() {
        let data = Data(#"{"v":1,"lat":1,"lon":2,"tst":3,"moved":true,"lastMovedAt":3}"#.utf8)
        #expect(throws: PayloadError.self) { try PositionUpdate.decode(data, maxBytes: 10) }
    }
}
