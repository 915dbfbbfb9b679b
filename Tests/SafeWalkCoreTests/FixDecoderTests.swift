import Foundation
import SafeWalkCore
import Testing

@Suite struct FixDecoderTests {
    /// An OwnTracks iOS location, as in the booklet, with the fields we do not use.
    let ownTracks = #"""
        {"_type":"location","acc":10,"alt":152,"batt":76,"bs":1,"conn":"w","lat":30.2849,"lon":-97.7341,
         "tid":"al","tst":1700000000,"vac":3,"vel":4,"inregions":["home"],"topic":"owntracks/alice/phone"}
        """#

    @Test func decodesAnOwnTracksLocation() throws {
        let outcome = try FixDecoder.decode(json(ownTracks), now: t0)
        #expect(outcome == .fix(LocationFix(lat: 30.2849, lon: -97.7341, tst: t0, acc: 10, alt: 152, vel: 4, batt: 76)))
    }

    @Test func acceptsIntegersAndFractionsForEveryNumber() throws {
        let text = #"{"_type":"location","lat":30,"lon":-97.5,"tst":1700000000.25,"acc":7.5}"#
        #expect(
            try FixDecoder.decode(json(text), now: t0)
                == .fix(LocationFix(lat: 30, lon: -97.5, tst: t0 + 0.25, acc: 7.5)))
    }

    @Test func absentAccuracyIsUnknownNotPerfect() throws {
        let text = #"{"_type":"location","lat":30,"lon":-97,"tst":1700000000}"#
        guard case .fix(let fix) = try FixDecoder.decode(json(text), now: t0) else {
            Issue.record("expected a fix")
            return
        }
        #expect(fix.acc == nil)
        #expect(fix.alt == nil && fix.vel == nil && fix.batt == nil)
    }

    @Test func ourOwnFormatRoundTripsThroughTheDecoder() throws {
        #expect(try FixDecoder.decode(SafeWalkJSON.encode(sampleFix), now: t0) == .fix(sampleFix))
    }

    @Test func ourOwnFormatNeedsVersionOne() {
        #expect(fixRejection(#"{"lat":30,"lon":-97,"tst":1700000000}"#) == .missingVersion)
        #expect(fixRejection(#"{"v":2,"lat":30,"lon":-97,"tst":1700000000}"#) == .unsupportedVersion)
        #expect(fixRejection(#"{"v":"1","lat":30,"lon":-97,"tst":1700000000}"#) == .unsupportedVersion)
    }

    @Test func ownTracksLocationsMayCarryVersionOneButNoOther() {
        #expect(fixRejection(#"{"_type":"location","v":1,"lat":30,"lon":-97,"tst":1700000000}"#) == nil)
        #expect(fixRejection(#"{"_type":"location","v":2,"lat":30,"lon":-97,"tst":1700000000}"#) == .unsupportedVersion)
    }

    @Test(arguments: ["transition", "card", "waypoint", "waypoints", "status", "encrypted", "cmd", "beacon", "", "LWT"])
    func otherOwnTracksTypesAreIgnoredNotErrors(type: String) throws {
        let text = #"{"_type":"\#(type)","tst":1700000000,"desc":"Home"}"#
        #expect(try FixDecoder.decode(json(text), now: t0) == .ignored(type: type))
    }

    @Test func theOwnTracksLastWillCarriesWhenItsConnectionBegan() throws {
        #expect(
            try FixDecoder.decode(json(#"{"_type":"lwt","tst":1700000000}"#), now: t0)
                == .lastWill(connectedAt: 1_700_000_000))
    }

    /// A device that is gone must not be missed because the rest of its will is odd.
    @Test(arguments: [
        #"{"_type":"lwt"}"#, #"{"_type":"lwt","tst":"1700000000"}"#, #"{"_type":"lwt","tst":null,"v":"x"}"#,
        #"{"_type":"lwt","tst":1700000000,"v":7,"lat":"x"}"#,
    ])
    func aLastWillIsReadEvenWhenTheRestIsOdd(text: String) throws {
        guard case .lastWill = try FixDecoder.decode(json(text), now: t0) else {
            Issue.record("not read as a last will: \(text)")
            return
        }
    }

    @Test func aNonStringTypeIsTheWrongType() {
        #expect(fixRejection(#"{"_type":5,"lat":30,"lon":-97,"tst":1700000000}"#) == .wrongType("_type"))
    }

    @Test(arguments: ["lat", "lon", "tst", "acc", "batt"])
    func stringsForNumbersAreRefused(field: String) {
        var object: [String: String] = ["lat": "30", "lon": "-97", "tst": "1700000000", "acc": "5", "batt": "50"]
        object[field] = #""\#(object[field]!)""#
        let body = object.map { #""\#($0.key)":\#($0.value)"# }.joined(separator: ",")
        #expect(fixRejection(#"{"_type":"location",\#(body)}"#) == .wrongType(field))
    }

    @Test(arguments: ["lat", "lon", "tst"])
    func missingOrNullRequiredFieldsAreRefused(field: String) {
        let all = ["lat": "30", "lon": "-97", "tst": "1700000000"]
        let without = all.filter { $0.key != field }.map { #""\#($0.key)":\#($0.value)"# }.joined(separator: ",")
        #expect(fixRejection(#"{"v":1,\#(without)}"#) == .missingField(field))
        #expect(fixRejection(#"{"v":1,"\#(field)":null,\#(without)}"#) == .missingField(field))
    }

    @Test(arguments: ["", "not json", "[]", "\"location\"", "online", "{\"_type\":\"location\""])
    func nonObjectsAreMalformed(text: String) {
        #expect(fixRejection(text) == .malformed)
    }

    @Test func oversizedPayloadsAreRefusedBeforeParsing() {
        let padding = String(repeating: " ", count: 9000)
        #expect(
            fixRejection(#"{"v":1,"lat":30,"lon":-97,"tst":1700000000}"# + padding)
                == .tooLarge(bytes: 9043, limit: 8192))
        let small = FixPolicy(maxBytes: 40)
        #expect(
            fixRejection(#"{"v":1,"lat":30,"lon":-97,"tst":1700000000}"#, policy: small)
                == .tooLarge(bytes: 43, limit: 40))
    }

    @Test func numbersBeyondDoubleAreRefused() {
        // Foundation refuses the whole document, so it can never become an infinite latitude.
        #expect(fixRejection(#"{"v":1,"lat":1e400,"lon":-97,"tst":1700000000}"#) == .malformed)
    }

    @Test func parseChecksShapeButNotTheClock() throws {
        let ancient = #"{"v":1,"lat":30,"lon":-97,"tst":5}"#
        #expect(try FixDecoder.parse(json(ancient)) == .fix(LocationFix(lat: 30, lon: -97, tst: 5, acc: nil)))
        #expect(fixRejection(ancient) == .tooOld)
    }
}
