import AsyncHTTPClient
import Foundation
import Logging
import Metrics
import SafeWalkCore

/// The production ``ChatModel``: Gemini's `generateContent` over one shared `HTTPClient`.
///
/// Everything happens within `configuration.timeout`: at most two attempts (see
/// ``RetryPolicy``), each raced against the overall deadline. The clock is injected so tests
/// can drive `Retry-After` waits and the deadline without real time passing. The API key
/// travels only in the `x-goog-api-key` header and is never logged.
public struct GeminiClient<C: Clock>: ChatModel where C.Duration == Duration {
    let http: HTTPClient
    let configuration: GeminiConfiguration
    let systemInstruction: String
    let clock: C
    let logger: Logger

    public init(
        http: HTTPClient, configuration: GeminiConfiguration, clock: C, logger: Logger,
        systemInstruction: String = CompanionText.systemInstruction
    ) {
        self.http = http
        self.configuration = configuration
        self.systemInstruction = systemInstruction
        self.clock = clock
        self.logger = logger
    }

    public func reply(to conversation: [ChatTurn]) async throws(ChatModelError) -> String {
        guard let key = configuration.apiKey else { throw .noKey }
        let request = GeminiRequestBuilder.request(
            for: conversation, systemInstruction: systemInstruction, generation: configuration.generation)
        guard let body = try? SafeWalkJSON.encode(request) else { throw .malformed("request not encodable") }
        let deadline = clock.now.advanced(by: configuration.timeout)
        var attempt = 1
        while true {
            switch await attemptBeforeDeadline(body: body, key: key, deadline: deadline, attempt: attempt) {
            case .answer(let text):
                return text
            case .failure(let error, let retryAfter):
                let remaining = clock.now.duration(to: deadline)
                switch configuration.retry.decision(
                    after: error, attempt: attempt, retryAfter: retryAfter, remaining: remaining)
                {
                case .giveUp:
                    throw error
                case .retry(let wait):
                    logger.info(
                        "gemini attempt failed; retrying once",
                        metadata: [
                            "error": "\(error.code)", "waitMs": "\(wait.milliseconds)",
                        ])
                    do { try await clock.sleep(for: wait) } catch { throw .offline("cancelled") }
                    attempt += 1
                }
            }
        }
    }

    /// One HTTP exchange raced against the deadline on the injected clock. AsyncHTTPClient's own
    /// deadline stops at the response head, so the race also covers a body that never ends.
    private func attemptBeforeDeadline(body: Data, key: String, deadline: C.Instant, attempt: Int) async
        -> GeminiResponseReader.Outcome
    {
        let outcome = await withTaskGroup(of: GeminiResponseReader.Outcome?.self) { group in
            group.addTask { await self.send(body: body, key: key, attempt: attempt) }
            group.addTask {
                try? await self.clock.sleep(until: deadline, tolerance: nil)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if let outcome { return outcome }
        return .failure(Task.isCancelled ? .offline("cancelled") : .timedOut, retryAfter: nil)
    }

    private func send(body: Data, key: String, attempt: Int) async -> GeminiResponseReader.Outcome {
        var request = HTTPClientRequest(url: configuration.endpoint)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        request.headers.add(name: "x-goog-api-key", value: key)
        request.body = .bytes(body)
        let started = ContinuousClock.now
        do {
            // A backstop on real time; the race on the injected clock is the real bound.
            let response = try await http.execute(request, timeout: .nanoseconds(configuration.timeout.nanoseconds))
            guard let bytes = try await read(response.body) else {
                return .failure(
                    .malformed("response larger than \(configuration.maxResponseBytes) bytes"), retryAfter: nil)
            }
            let status = Int(response.status.code)
            Metrics.Timer(label: "safewalk_gemini_request_duration", dimensions: [("status", "\(status)")])
                .recordInterval(since: started)
            logger.debug(
                "gemini answered",
                metadata: [
                    "status": "\(status)", "attempt": "\(attempt)",
                    "ms": "\((ContinuousClock.now - started).milliseconds)",
                ])
            return GeminiResponseReader.read(
                status: status, retryAfterHeader: response.headers.first(name: "retry-after"),
                body: bytes, now: Date(), maxAnswerCharacters: configuration.maxAnswerCharacters)
        } catch let error as HTTPClientError where error == .deadlineExceeded {
            return .failure(.timedOut, retryAfter: nil)
        } catch is CancellationError {
            return .failure(.offline("cancelled"), retryAfter: nil)
        } catch {
            // Connection errors name no secrets (the key is a header, never in the URL).
            return .failure(.offline(String(describing: error)), retryAfter: nil)
        }
    }
}

extension GeminiClient {
    /// The body, or nil past `maxResponseBytes` (a hostile or broken server must not fill memory).
    private func read(_ body: HTTPClientResponse.Body) async throws -> Data? {
        var data = Data()
        for try await chunk in body {
            guard data.count + chunk.readableBytes <= configuration.maxResponseBytes else { return nil }
            data.append(contentsOf: chunk.readableBytesView)
        }
        return data
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    var milliseconds: Int64 { nanoseconds / 1_000_000 }
}

extension Metrics.Timer {
    func recordInterval(since start: ContinuousClock.Instant) {
        recordNanoseconds((ContinuousClock.now - start).nanoseconds)
    }
}
