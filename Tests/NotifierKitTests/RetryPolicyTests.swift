import NotifierKit
import Testing

@Suite("Retry policy: exponential backoff with jitter")
struct RetryPolicyTests {
    let policy = RetryPolicy(maxAttempts: 5, baseDelay: 1, maxDelay: 10)

    @Test func delaysDoubleUntilTheCap() {
        let full = (1...6).map { policy.delay(afterAttempt: $0, random: 1) }
        #expect(full == [1, 2, 4, 8, 10, 10])
    }

    @Test func jitterKeepsAtLeastHalfOfTheDelay() {
        #expect(policy.delay(afterAttempt: 3, random: 0) == 2)
        #expect(policy.delay(afterAttempt: 3, random: 0.5) == 3)
        #expect(policy.delay(afterAttempt: 3, random: .nan) == 3)
    }

    @Test func hugeAttemptNumbersDoNotOverflow() {
        #expect(policy.delay(afterAttempt: 10_000, random: 1) == 10)
    }

    @Test func theDefaultPolicyOutlastsATwoMinuteGatewayOutage() {
        let defaults = RetryPolicy()
        let shortestWait = (1..<defaults.maxAttempts).map { defaults.delay(afterAttempt: $0, random: 0) }.reduce(0, +)
        #expect(shortestWait >= 120)
    }

    @Test func maxAttemptsCountsTheFirst() {
        #expect(policy.allowsAnother(after: 4))
        #expect(!policy.allowsAnother(after: 5))
        #expect(RetryPolicy(maxAttempts: 0).maxAttempts == 1)
    }
}
