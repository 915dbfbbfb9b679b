import Foundation
import Testing

@testable import CompanionChatKit

@Suite struct RetryAfterTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT

    @Test func deltaSecondsAreRead() {
        #expect(RetryAfter.header("7", now: now) == .seconds(7))
        #expect(RetryAfter.header(" 0 ", now: now) == .zero)
    }

    @Test func anHTTPDateIsReadRelativeToNow() {
        #expect(RetryAfter.header("Tue, 14 Nov 2023 22:13:32 GMT", now: now) == .seconds(12))
        #expect(RetryAfter.header("Tue, 14 Nov 2023 22:13:00 GMT", now: now) == .zero)  // in the past: no wait
    }

    @Test func garbageAndNegativeValuesAreIgnored() {
        for value in ["", "soon", "-5", "1.5", "Tuesday"] {
            #expect(RetryAfter.header(value, now: now) == nil, "\(value)")
        }
        #expect(RetryAfter.header(nil, now: now) == nil)
    }

    @Test func hugeValuesAreCappedNotOverflowed() {
        #expect(RetryAfter.header("99999999999", now: now) == .seconds(3600))
        #expect(RetryAfter.retryDelay("1e300s") == .seconds(3600))
    }

    @Test func googleRetryInfoDelaysAreRead() {
        #expect(RetryAfter.retryDelay("17s") == .seconds(17))
        #expect(RetryAfter.retryDelay("0.5s") == .milliseconds(500))
        #expect(RetryAfter.retryDelay("17") == nil)
        #expect(RetryAfter.retryDelay("abcs") == nil)
        #expect(RetryAfter.retryDelay("nans") == nil)
    }
}
