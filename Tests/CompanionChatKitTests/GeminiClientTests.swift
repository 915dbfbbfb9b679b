import AsyncHTTPClient
import Foundation
import Logging
import TestSupport
import Testing

@testable import CompanionChatKit

/// The production ``GeminiClient`` against ``FakeGeminiServer`` on loopback. Time is a
/// ``ManualClock``: retry waits and the timeout happen when the test advances it.
@Suite struct GeminiClientTests {
    static let conversation = [ChatTurn(.companion, "Just checking in!"), ChatTurn(.walker, "a bit scared tbh")]

    struct Harness {
        let client: GeminiClient<ManualClock>
        let fake: FakeGeminiServer
        let clock: ManualClock

        func reply() async -> Result<String, ChatModelError> {
            do { return .success(try await client.reply(to: GeminiClientTests.conversation)) } catch {
                return .failure(error)
            }
        }

        func instant(_ duration: Duration) -> ManualClock.Instant { .init(offset: duration) }
    }

    func withHarness(
        timeout: Duration = .seconds(10), backoff: Duration = .zero, key: String?? = .none,
        baseURL: String? = nil,
        _ body: @escaping @Sendable (Harness) async throws -> Void
    ) async throws {
        let fake = try await FakeGeminiServer.start()
        // AsyncHTTPClient keeps retrying a refused connection until its connect timeout, and a
        // ManualClock deadline never fires on its own: short for the closed port, where the
        // timeout is the answer. For the fake it is generous: a first attempt that fails on a
        // loaded machine turns into a retry the test never scripted (twice on CI, early in the
        // full run, the 429 was missed and the test waited for a Retry-After sleep that never
        // came). The tests that wait for a retry's sleep give the client 60 s for the same reason:
        // its timeout is also AsyncHTTPClient's real-time backstop.
        var httpConfiguration = HTTPClient.Configuration()
        httpConfiguration.timeout.connect = baseURL == nil ? .seconds(60) : .milliseconds(300)
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: httpConfiguration)
        let configuration = GeminiConfiguration(
            apiKey: key ?? fake.apiKey, baseURL: baseURL ?? fake.baseURL, timeout: timeout,
            retry: RetryPolicy(backoff: backoff, minimumAttempt: .seconds(1)))
        let clock = ManualClock()
        let client = GeminiClient(
            http: http, configuration: configuration, clock: clock, logger: Logger(label: "test.gemini"))
        do {
            try await withTimeout(90, "gemini client test") {
                try await body(Harness(client: client, fake: fake, clock: clock))
            }
        } catch {
            try? await http.shutdown()
            await fake.shutdown()
            throw error
        }
        try await http.shutdown()
        await fake.shutdown()
    }

    @Test func anAnswerArrivesWithTheKeyInTheHeaderAndGeminisBodyShape() async throws {
        try await withHarness { h in
            h.fake.script(.answer("Stay on the lit side of the street; you're doing fine."))
            #expect(await h.reply() == .success("Stay on the lit side of the street; you're doing fine."))
            let request = try #require(h.fake.requests.first)
            #expect(h.fake.requests.count == 1)
            #expect(request.method == "POST")
            #expect(request.path == "/v1beta/models/gemini-2.0-flash:generateContent")
            #expect(request.headers["x-goog-api-key"] == h.fake.apiKey)
            #expect(request.headers["content-type"] == "application/json")
            #expect(!request.path.contains(h.fake.apiKey))
            let json = try #require(request.json())
            let contents = try #require(json["contents"] as? [[String: Any]])
            #expect(contents.last?["role"] as? String == "user")
            #expect(((contents.last?["parts"] as? [[String: Any]])?.first?["text"]) as? String == "a bit scared tbh")
            #expect(json["systemInstruction"] != nil && json["generationConfig"] != nil)
        }
    }

    @Test func aServerErrorIsRetriedOnceAfterTheBackoffAndThenSucceeds() async throws {
        try await withHarness(timeout: .seconds(60), backoff: .seconds(1)) { h in
            h.fake.script(.fail(500), .answer("Still here with you."))
            async let result = h.reply()
            await h.clock.waitForSleeper(until: h.instant(.seconds(1)))
            #expect(h.fake.requests.count == 1)  // waiting, not yet retried
            await h.clock.advance(by: .seconds(1))
            #expect(await result == .success("Still here with you."))
            #expect(h.fake.requests.count == 2)
        }
    }

    @Test func twoServerErrorsGiveUpAfterExactlyOneRetry() async throws {
        try await withHarness { h in
            h.fake.script(.fail(503), .fail(500), .answer("never asked for"))
            let result = await h.reply()
            guard case .failure(.serverError(500, "INTERNAL", _)) = result else {
                Issue.record("expected serverError 500, got \(result)"); return
            }
            #expect(h.fake.requests.count == 2)
        }
    }

    @Test func aServerThatHangsPastTheTimeoutTimesOutWithoutARetry() async throws {
        try await withHarness(timeout: .seconds(5)) { h in
            h.fake.script(.hang)
            async let result = h.reply()
            await h.fake.waitForRequests(1)
            await h.clock.advance(by: .seconds(5))
            #expect(await result == .failure(.timedOut))
            #expect(h.fake.requests.count == 1)
        }
    }

    @Test func rateLimitingWaitsForRetryAfterThenRetries() async throws {
        try await withHarness(timeout: .seconds(60)) { h in
            h.fake.script(.rateLimited(retryAfter: "3", retryInfo: nil), .answer("Okay, I'm back."))
            async let result = h.reply()
            await h.clock.waitForSleeper(until: h.instant(.seconds(3)))
            await h.clock.advance(by: .seconds(2))
            #expect(h.fake.requests.count == 1)  // 2 s in: still honouring the 3 s
            await h.clock.advance(by: .seconds(1))
            #expect(await result == .success("Okay, I'm back."))
            #expect(h.fake.requests.count == 2)
        }
    }

    @Test func googlesRetryInfoDelayIsHonouredLikeRetryAfter() async throws {
        try await withHarness(timeout: .seconds(60)) { h in
            h.fake.script(.rateLimited(retryAfter: nil, retryInfo: "2s"), .answer("Back again."))
            async let result = h.reply()
            await h.clock.waitForSleeper(until: h.instant(.seconds(2)))
            await h.clock.advance(by: .seconds(2))
            #expect(await result == .success("Back again."))
        }
    }

    @Test func aRetryAfterBeyondTheTimeoutGivesUpAtOnce() async throws {
        try await withHarness(timeout: .seconds(10)) { h in
            h.fake.script(.rateLimited(retryAfter: "60", retryInfo: nil))
            #expect(await h.reply() == .failure(.rateLimited(retryAfter: .seconds(60))))
            #expect(h.fake.requests.count == 1)
        }
    }

    @Test func aSafetyBlockedPromptIsReportedAsBlockedAndNotRetried() async throws {
        try await withHarness { h in
            h.fake.script(.blockedPrompt("SAFETY"))
            #expect(await h.reply() == .failure(.blocked(reason: "SAFETY")))
            h.fake.script(.blockedCandidate("SAFETY"))
            #expect(await h.reply() == .failure(.blocked(reason: "SAFETY")))
            #expect(h.fake.requests.count == 2)
        }
    }

    @Test func malformedJSONIsReportedAsMalformedAndNotRetried() async throws {
        try await withHarness { h in
            h.fake.script(.malformed)
            #expect(await h.reply() == .failure(.malformed("not a GenerateContentResponse")))
            #expect(h.fake.requests.count == 1)
        }
    }

    @Test func aDroppedConnectionIsANetworkFailureAndIsRetried() async throws {
        try await withHarness { h in
            h.fake.script(.dropConnection, .answer("Reconnected."))
            #expect(await h.reply() == .success("Reconnected."))
            #expect(h.fake.requests.count == 2)
        }
    }

    @Test func withoutAKeyNoRequestIsMade() async throws {
        try await withHarness(key: .some(nil)) { h in
            #expect(await h.reply() == .failure(.noKey))
            #expect(h.fake.requests.isEmpty)
        }
    }

    @Test func aWrongKeyIsRejectedAndNotRetried() async throws {
        try await withHarness(key: "wrong-key") { h in
            #expect(
                await h.reply()
                    == .failure(
                        .rejected(
                            code: 400, status: "INVALID_ARGUMENT",
                            message: "API key not valid. Please pass a valid API key.")))
            #expect(h.fake.requests.count == 1)
        }
    }

    @Test func anUnreachableServerIsOffline() async throws {
        let closedPort = try Loopback.freePort()
        try await withHarness(baseURL: "http://127.0.0.1:\(closedPort)") { h in
            let result = await h.reply()
            guard case .failure(.offline) = result else { Issue.record("expected offline, got \(result)"); return }
        }
    }
}
