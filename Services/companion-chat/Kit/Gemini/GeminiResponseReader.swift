import Foundation

/// Turns one HTTP exchange with Gemini into an answer or a typed failure. Pure: the client
/// hands it the status, the `Retry-After` header and the body, so every shape Google can send
/// is tested without a socket.
enum GeminiResponseReader {
    enum Outcome: Hashable, Sendable {
        case answer(String)
        case failure(ChatModelError, retryAfter: Duration?)
    }

    /// Finish reasons that mean the answer was withheld or cut by a filter: even partial text
    /// is not shown, since it may stop mid-sentence on exactly what was filtered.
    static let blockingFinishReasons: Set<String> = [
        "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY",
    ]

    static func read(
        status: Int, retryAfterHeader: String?, body: Data, now: Date,
        maxAnswerCharacters: Int
    ) -> Outcome {
        guard status == 200 else {
            return failure(status: status, retryAfterHeader: retryAfterHeader, body: body, now: now)
        }
        let response: GenerateContentResponse
        do {
            response = try JSONDecoder().decode(GenerateContentResponse.self, from: body)
        } catch {
            return .failure(.malformed(body.isEmpty ? "empty body" : "not a GenerateContentResponse"), retryAfter: nil)
        }
        if let reason = response.promptFeedback?.blockReason {
            return .failure(.blocked(reason: reason), retryAfter: nil)
        }
        guard let candidate = response.candidates?.first else {
            return .failure(.malformed("no candidates"), retryAfter: nil)
        }
        if let reason = candidate.finishReason, blockingFinishReasons.contains(reason) {
            return .failure(.blocked(reason: reason), retryAfter: nil)
        }
        let text = (candidate.content?.parts ?? []).compactMap(\.text).joined()
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            return .failure(.malformed("no text (finishReason \(candidate.finishReason ?? "-"))"), retryAfter: nil)
        }
        return .answer(CompanionText.limit(text, to: maxAnswerCharacters))
    }

    private static func failure(status: Int, retryAfterHeader: String?, body: Data, now: Date) -> Outcome {
        let error = (try? JSONDecoder().decode(GeminiErrorResponse.self, from: body))?.error
        let retryInfo = error?.details?.lazy.compactMap { RetryAfter.retryDelay($0.retryDelay) }.first
        let retryAfter = RetryAfter.header(retryAfterHeader, now: now) ?? retryInfo
        // Google's messages can be long; logs need the gist.
        let message = error?.message.map { String($0.prefix(200)) }
        switch status {
        case 429:
            return .failure(.rateLimited(retryAfter: retryAfter), retryAfter: retryAfter)
        case 408, 500...599:
            return .failure(.serverError(code: status, status: error?.status, message: message), retryAfter: retryAfter)
        default:
            return .failure(.rejected(code: status, status: error?.status, message: message), retryAfter: nil)
        }
    }
}
