import Testing

@testable import CompanionChatKit

@Suite struct RetryPolicyTests {
    let policy = RetryPolicy(backoff: .milliseconds(500), minimumAttempt: .seconds(1))

    @Test(arguments: [
        ChatModelError.offline("refused"), .rateLimited(retryAfter: nil),
        .serverError(code: 408, status: nil, message: nil), .serverError(code: 500, status: "INTERNAL", message: nil),
        .serverError(code: 503, status: "UNAVAILABLE", message: nil),
    ])
    func transientFailureOnTheFirstAttemptIsRetriedAfterTheBackoff(error: ChatModelError) {
        #expect(
            policy.decision(after: error, attempt: 1, retryAfter: nil, remaining: .seconds(10))
                == .retry(after: .milliseconds(500)))
    }

    @Test func theServersRetryAfterReplacesTheBackoff() {
        #expect(
            policy.decision(
                after: .rateLimited(retryAfter: .seconds(3)), attempt: 1, retryAfter: .seconds(3),
                remaining: .seconds(10)) == .retry(after: .seconds(3)))
    }

    @Test func thereIsNeverASecondRetry() {
        #expect(policy.decision(after: .offline("x"), attempt: 2, retryAfter: nil, remaining: .seconds(10)) == .giveUp)
    }

    @Test(arguments: [
        ChatModelError.noKey, .timedOut, .blocked(reason: "SAFETY"), .malformed("x"),
        .rejected(code: 400, status: "INVALID_ARGUMENT", message: nil), .rejected(code: 404, status: nil, message: nil),
    ])
    func permanentFailuresAreNotRetried(error: ChatModelError) {
        #expect(policy.decision(after: error, attempt: 1, retryAfter: nil, remaining: .seconds(10)) == .giveUp)
    }

    @Test func aWaitThatWouldOverrunTheTimeoutMeansGivingUpNow() {
        // 9 s wait + 1 s minimum attempt > 9.5 s left: the walker must hear back in time.
        #expect(
            policy.decision(
                after: .rateLimited(retryAfter: .seconds(9)), attempt: 1, retryAfter: .seconds(9),
                remaining: .milliseconds(9_500)) == .giveUp)
        #expect(
            policy.decision(
                after: .rateLimited(retryAfter: .seconds(8)), attempt: 1, retryAfter: .seconds(8),
                remaining: .milliseconds(9_500)) == .retry(after: .seconds(8)))
    }

    @Test func defaultPolicyLeavesAQuarterOfAShortTimeoutForTheRetry() {
        let configuration = GeminiConfiguration(apiKey: nil, timeout: .seconds(2))
        #expect(configuration.retry.minimumAttempt == .milliseconds(500))
        #expect(GeminiConfiguration(apiKey: nil, timeout: .seconds(10)).retry.minimumAttempt == .seconds(1))
    }
}
