import Testing

@testable import SafeWalkCLI

@Suite struct DurationValueTests {
    @Test(arguments: [
        ("30s", 30.0), ("2m", 120), ("1.5", 1.5), ("1h", 3600), ("500ms", 0.5), ("0", 0), (" 20S ", 20), ("0.25m", 15),
    ])
    func acceptsSecondsMinutesHoursAndBareNumbers(text: String, seconds: Double) {
        #expect(DurationValue(argument: text)?.seconds == seconds)
    }

    @Test(arguments: ["", "s", "-1s", "abc", "1d", "inf", "nan", "1e3", "0x10", "1.2.3", "5 m"])
    func refusesAnythingElse(text: String) {
        #expect(DurationValue(argument: text) == nil)
    }
}
