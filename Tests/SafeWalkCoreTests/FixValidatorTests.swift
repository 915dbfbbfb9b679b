import SafeWalkCore
import Testing

@Suite struct FixValidatorTests {
    func rejection(_ fix: LocationFix, now: EpochSeconds = t0, policy: FixPolicy = FixPolicy()) -> FixRejection? {
        do {
            try FixValidator.validate(fix, now: now, policy: policy)
            return nil
        } catch {
            return error
        }
    }

    @Test func acceptsAnOrdinaryFix() {
        #expect(rejection(sampleFix) == nil)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteNumbersAreRefusedByName(value: Double) {
        #expect(rejection(LocationFix(lat: value, lon: 0, tst: t0, acc: 5)) == .nonFinite("lat"))
        #expect(rejection(LocationFix(lat: 0, lon: value, tst: t0, acc: 5)) == .nonFinite("lon"))
        #expect(rejection(LocationFix(lat: 0, lon: 0, tst: value, acc: 5)) == .nonFinite("tst"))
        #expect(rejection(LocationFix(lat: 0, lon: 0, tst: t0, acc: value)) == .nonFinite("acc"))
        #expect(rejection(LocationFix(lat: 0, lon: 0, tst: t0, acc: 5, batt: value)) == .nonFinite("batt"))
    }

    @Test func latitudeMustBeWithinNinetyDegrees() {
        #expect(rejection(fix(at: Coordinate(lat: 91, lon: 0))) == .latitudeOutOfRange)
        #expect(rejection(fix(at: Coordinate(lat: -90.000001, lon: 0))) == .latitudeOutOfRange)
        #expect(rejection(fix(at: Coordinate(lat: 1e308, lon: 0))) == .latitudeOutOfRange)
        #expect(rejection(fix(at: Coordinate(lat: 90, lon: 0))) == nil)
        #expect(rejection(fix(at: Coordinate(lat: -90, lon: 0))) == nil)
    }

    @Test func longitudeMustBeWithin180Degrees() {
        #expect(rejection(fix(at: Coordinate(lat: 0, lon: 180.5))) == .longitudeOutOfRange)
        #expect(rejection(fix(at: Coordinate(lat: 0, lon: -1e308))) == .longitudeOutOfRange)
        #expect(rejection(fix(at: Coordinate(lat: 0, lon: 180))) == nil)
    }

    @Test func accuracyMustNotBeNegative() {
        #expect(rejection(fix(at: austin, acc: -1)) == .invalidAccuracy)
        #expect(rejection(fix(at: austin, acc: 0)) == nil)
        #expect(rejection(fix(at: austin, acc: nil)) == nil)
    }

    @Test func staleFixesAreRefusedAtTheEdgeOfTheWindow() {
        #expect(rejection(fix(at: austin, tst: t0 - 300)) == nil)
        #expect(rejection(fix(at: austin, tst: t0 - 300.001)) == .tooOld)
    }

    @Test func futureFixesAreRefusedBeyondTheSkew() {
        #expect(rejection(fix(at: austin, tst: t0 + 60)) == nil)
        #expect(rejection(fix(at: austin, tst: t0 + 60.001)) == .inFuture)
    }

    @Test func theTimeWindowIsConfigurable() {
        let strict = FixPolicy(maxAge: 10, maxFutureSkew: 0)
        #expect(rejection(fix(at: austin, tst: t0 - 11), policy: strict) == .tooOld)
        #expect(rejection(fix(at: austin, tst: t0 + 1), policy: strict) == .inFuture)
        #expect(rejection(fix(at: austin, tst: t0 - 3600), policy: FixPolicy(maxAge: 7200)) == nil)
    }

    @Test func decodingValidatesValues() {
        #expect(fixRejection(#"{"v":1,"lat":91,"lon":0,"tst":1700000000}"#) == .latitudeOutOfRange)
        #expect(fixRejection(#"{"v":1,"lat":1e308,"lon":0,"tst":1700000000}"#) == .latitudeOutOfRange)
        #expect(fixRejection(#"{"v":1,"lat":0,"lon":0,"tst":1700000000,"acc":-3}"#) == .invalidAccuracy)
    }

    @Test func rejectionCodesAreStable() {
        let all: [FixRejection] = [
            .tooLarge(bytes: 2, limit: 1), .malformed, .missingVersion, .unsupportedVersion, .missingField("x"),
            .wrongType("x"), .invalidValue("x"), .nonFinite("x"), .latitudeOutOfRange, .longitudeOutOfRange,
            .invalidAccuracy, .tooOld, .inFuture,
        ]
        #expect(
            all.map(\.code) == [
                "too_large", "malformed", "missing_version", "unsupported_version", "missing_field", "wrong_type",
                "invalid_value", "non_finite", "latitude_out_of_range", "longitude_out_of_range", "invalid_accuracy",
                "too_old", "in_future",
            ])
        #expect(FixRejection.missingField("lat").description == "missing_field (lat)")
    }
}
