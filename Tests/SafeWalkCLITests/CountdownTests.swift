import SafeWalkCLI
import SafeWalkCore
import Testing

@Suite struct CountdownTests {
    @Test func formatsMinutesAndSeconds() {
        #expect(Countdown.format(remaining: 125) == "02:05")
        #expect(Countdown.format(remaining: 600) == "10:00")
    }

    @Test func roundsUpSoZeroOnlyMeansDone() {
        #expect(Countdown.format(remaining: 59.4) == "01:00")
        #expect(Countdown.format(remaining: 59) == "00:59")
        #expect(Countdown.format(remaining: 0.001) == "00:01")
        #expect(Countdown.format(remaining: 60.0001) == "01:01")
    }

    @Test(arguments: [0.0, -0.0, -5.0, -Double.infinity])
    func zeroAndNegativeShowZero(seconds: Double) {
        #expect(Countdown.format(remaining: seconds) == "00:00")
    }

    @Test(arguments: [Double.nan, .infinity])
    func unknownTimesShowDashes(seconds: Double) {
        #expect(Countdown.format(remaining: seconds) == "--:--")
    }

    @Test func longTimesKeepCountingMinutes() {
        #expect(Countdown.format(remaining: 99 * 60 + 59) == "99:59")
        #expect(Countdown.format(remaining: 7_200) == "120:00")
    }

    @Test func absurdTimesClampInsteadOfOverflowing() {
        #expect(Countdown.format(remaining: 1e300) == "9999:59")
        #expect(Countdown.format(remaining: 9_999 * 60 + 59) == "9999:59")
    }

    @Test func countsDownToADeadline() {
        #expect(Countdown.format(until: t0 + 90, now: t0) == "01:30")
        #expect(Countdown.format(until: t0, now: t0 + 1) == "00:00")
    }
}

/// 2023-11-14 22:13:20 UTC.
private let t0: EpochSeconds = 1_700_000_000
