import Foundation
import SafeWalkCore
import Testing

@Suite struct PayloadVersionTests {
    @Test(arguments: PayloadSample.allCases)
    func everyPayloadRoundTrips(sample: PayloadSample) throws {
        #expect(try sample.probe.roundTrips())
    }

    @Test(arguments: PayloadSample.allCases)
    func everyPayloadWritesVersionOne(sample: PayloadSample) throws {
        #expect(try sample.probe.object()["v"] as? Int == 1)
    }

    @Test(arguments: PayloadSample.allCases)
    func everyPayloadWithoutVersionIsRefused(sample: PayloadSample) throws {
        #expect(try sample.probe.decodeError { $0["v"] = nil } == .missingVersion)
        #expect(try sample.probe.decodeError { $0["v"] = NSNull() } == .missingVersion)
    }

    @Test(arguments: PayloadSample.allCases)
    func everyPayloadWithAnotherVersionIsRefused(sample: PayloadSample) throws {
        #expect(try sample.probe.decodeError { $0["v"] = 2 } == .unsupportedVersion)
        #expect(try sample.probe.decodeError { $0["v"] = 0 } == .unsupportedVersion)
        #expect(try sample.probe.decodeError { $0["v"] = "1" } == .unsupportedVersion)
    }

    @Test(arguments: PayloadSample.allCases)
    func everyPayloadIgnoresUnknownFields(sample: PayloadSample) throws {
        #expect(try sample.probe.decodeError { $0["futureField"] = ["nested": true] } == nil)
    }

    @Test(arguments: PayloadSample.allCases)
    func everyPayloadMissingARequiredFieldIsRefused(sample: PayloadSample) throws {
        #expect(try sample.probe.decodeError { $0[sample.requiredKey] = nil } == .missingField(sample.requiredKey))
    }
}

@Suite struct SafeWalkJSONTests {
    @Test func oversizedPayloadsAreRefusedBeforeParsing() {
        let data = Data(repeating: 0x20, count: 101)
        #expect(throws: PayloadError.tooLarge(bytes: 101, limit: 100)) {
            try SafeWalkJSON.decode(Reply.self, from: data, maxBytes: 100)
        }
    }

    @Test(arguments: ["", "not json", "[1,2]", "\"online\"", "{", "null"])
    func nonObjectsAreMalformed(text: String) {
        #expect(decodeError(Reply.self, json(text)) == .malformed)
    }

    @Test func stringsWhereNumbersBelongAreTheWrongType() {
        #expect(decodeError(Reply.self, json(#"{"v":1,"text":"hi","tst":"1700000000"}"#)) == .wrongType("tst"))
    }

    @Test func nestedFieldErrorsNameTheirPath() {
        let text =
            #"{"v":1,"id":"e","walker":"w","reason":"panic","level":"red","at":1,"#
            + #""lastFix":{"lat":1,"lon":2,"tst":3},"walk":null}"#
        // An absent `acc` is fine (unknown accuracy); an absent `lat` is not.
        #expect(decodeError(EscalationEvent.self, json(text)) == nil)
        let broken = text.replacingOccurrences(of: #""lat":1,"#, with: "")
        #expect(decodeError(EscalationEvent.self, json(broken)) == .missingField("lastFix.lat"))
    }

    @Test func encodingSortsKeysAndKeepsSlashesReadable() throws {
        let text = try jsonText(AlertAction(title: "Map", url: "https://maps.google.com/?q=1,2"))
        #expect(text == #"{"title":"Map","url":"https://maps.google.com/?q=1,2"}"#)
    }

    @Test func nonFiniteNumbersCannotBeEncoded() {
        #expect(throws: EncodingError.self) { try SafeWalkJSON.encode(Reply(text: "x", tst: .nan)) }
    }

    @Test func errorCodesAreStable() {
        let codes = [
            PayloadError.tooLarge(bytes: 2, limit: 1), .malformed, .missingVersion, .unsupportedVersion,
            .missingField("a"), .wrongType("a"), .invalidValue("a"),
        ].map(\.code)
        #expect(
            codes == [
                "too_large", "malformed", "missing_version", "unsupported_version", "missing_field", "wrong_type",
                "invalid_value",
            ])
    }
}
