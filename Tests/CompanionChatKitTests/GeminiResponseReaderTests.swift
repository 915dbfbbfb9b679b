import Foundation
import Testing

@testable import CompanionChatKit

/// Bodies copied in the shape Google documents, not produced by our own types.
@Suite struct GeminiResponseReaderTests {
    func read(_ status: Int, _ body: String, retryAfter: String? = nil, limit: Int = 800)
        -> GeminiResponseReader.Outcome
    {
        GeminiResponseReader.read(
            status: status, retryAfterHeader: retryAfter, body: Data(body.utf8),
            now: Date(timeIntervalSince1970: 0), maxAnswerCharacters: limit)
    }

    @Test func theAnswerIsTheFirstCandidatesTextPartsJoined() {
        let body = """
            {"candidates":[{"content":{"parts":[{"text":"You're doing great. "},{"text":"Keep going! \\n"}],"role":"model"},
             "finishReason":"STOP","index":0,"safetyRatings":[{"category":"HARM_CATEGORY_HARASSMENT","probability":"NEGLIGIBLE"}]}],
             "usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":7,"totalTokenCount":12},"modelVersion":"gemini-2.0-flash"}
            """
        #expect(read(200, body) == .answer("You're doing great. Keep going!"))
    }

    @Test func anAnswerCutByMaxTokensIsStillUsed() {
        let body =
            #"{"candidates":[{"content":{"parts":[{"text":"Stay on the main road"}],"role":"model"},"finishReason":"MAX_TOKENS"}]}"#
        #expect(read(200, body) == .answer("Stay on the main road"))
    }

    @Test func aLongAnswerIsShortenedAtAWord() {
        let body = #"{"candidates":[{"content":{"parts":[{"text":"one two three four five six"}],"role":"model"}}]}"#
        #expect(read(200, body, limit: 12) == .answer("one two…"))
    }

    @Test func aBlockedPromptIsBlocked() {
        let body =
            #"{"promptFeedback":{"blockReason":"SAFETY","safetyRatings":[{"category":"HARM_CATEGORY_DANGEROUS_CONTENT","probability":"HIGH"}]},"usageMetadata":{"promptTokenCount":9,"totalTokenCount":9}}"#
        #expect(read(200, body) == .failure(.blocked(reason: "SAFETY"), retryAfter: nil))
    }

    @Test(arguments: ["SAFETY", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII", "RECITATION"])
    func aCandidateStoppedByAFilterIsBlockedEvenWithPartialText(reason: String) {
        let body =
            #"{"candidates":[{"content":{"parts":[{"text":"You could"}],"role":"model"},"finishReason":"\#(reason)","index":0}]}"#
        #expect(read(200, body) == .failure(.blocked(reason: reason), retryAfter: nil))
        let bare = #"{"candidates":[{"finishReason":"\#(reason)","index":0}]}"#
        #expect(read(200, bare) == .failure(.blocked(reason: reason), retryAfter: nil))
    }

    @Test(arguments: [
        ("{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hang in th", "not a GenerateContentResponse"),
        ("", "empty body"),
        ("[1,2]", "not a GenerateContentResponse"),
        ("{\"candidates\":\"yes\"}", "not a GenerateContentResponse"),
        ("{}", "no candidates"),
        ("{\"candidates\":[]}", "no candidates"),
        (
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"  \"}]},\"finishReason\":\"STOP\"}]}",
            "no text (finishReason STOP)"
        ),
    ])
    func unusableSuccessBodiesAreMalformed(body: String, why: String) {
        #expect(read(200, body) == .failure(.malformed(why), retryAfter: nil))
    }

    @Test func rateLimitingCarriesGooglesRetryInfo() {
        let body = """
            {"error":{"code":429,"message":"You exceeded your current quota.","status":"RESOURCE_EXHAUSTED",
             "details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[]},
                        {"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"30s"}]}}
            """
        #expect(read(429, body) == .failure(.rateLimited(retryAfter: .seconds(30)), retryAfter: .seconds(30)))
        #expect(
            read(429, body, retryAfter: "2") == .failure(.rateLimited(retryAfter: .seconds(2)), retryAfter: .seconds(2))
        )
        #expect(read(429, "") == .failure(.rateLimited(retryAfter: nil), retryAfter: nil))
    }

    @Test func serverErrorsAreTransientAndKeepGooglesStatus() {
        let body =
            #"{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}"#
        let outcome = read(503, body, retryAfter: "1")
        #expect(
            outcome
                == .failure(
                    .serverError(
                        code: 503, status: "UNAVAILABLE", message: "The model is overloaded. Please try again later."),
                    retryAfter: .seconds(1)))
        #expect(
            read(408, "<html>timeout</html>")
                == .failure(.serverError(code: 408, status: nil, message: nil), retryAfter: nil))
    }

    @Test func aBadKeyIsRejectedAndNotTransient() {
        let body =
            #"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}"#
        guard case .failure(let error, _) = read(400, body) else { Issue.record("expected failure"); return }
        #expect(
            error
                == .rejected(
                    code: 400, status: "INVALID_ARGUMENT", message: "API key not valid. Please pass a valid API key."))
        #expect(!error.isTransient)
    }
}
