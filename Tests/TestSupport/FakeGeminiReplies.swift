import Foundation

/// What the fake sends back, with bodies in Google's documented JSON shapes.
enum FakeGeminiReply: Sendable {
    case response(status: Int, headers: [(String, String)], body: String)
    case hang
    case drop

    static func isAuthorised(_ request: FakeGeminiServer.Request, path: String, apiKey: String) -> Bool {
        request.method == "POST" && request.path == path && request.headers["x-goog-api-key"] == apiKey
            && request.json() != nil
    }

    /// Google's answers to a wrong path, a missing or wrong key, or a body that is not JSON.
    static func refusal(for request: FakeGeminiServer.Request, path: String, apiKey: String) -> FakeGeminiReply {
        if request.path != path || request.method != "POST" {
            let model = request.path.split(separator: "/").last.map(String.init) ?? "?"
            return error(
                404, "NOT_FOUND",
                "models/\(model) is not found for API version v1beta, or is not supported for generateContent.")
        }
        guard let key = request.headers["x-goog-api-key"] else {
            return error(
                403, "PERMISSION_DENIED",
                "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API."
            )
        }
        if key != apiKey { return error(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.") }
        return error(400, "INVALID_ARGUMENT", "Invalid JSON payload received.")
    }

    static func reply(for behaviour: FakeGeminiServer.Behaviour, model: String) -> FakeGeminiReply {
        switch behaviour {
        case .answer(let text):
            return ok(
                """
                {"candidates": [{"content": {"parts": [{"text": \(quoted(text))}], "role": "model"},
                  "finishReason": "STOP", "avgLogprobs": -0.21,
                  "safetyRatings": [{"category": "HARM_CATEGORY_HARASSMENT", "probability": "NEGLIGIBLE"}]}],
                 "usageMetadata": {"promptTokenCount": 87, "candidatesTokenCount": 14, "totalTokenCount": 101},
                 "modelVersion": "\(model)", "responseId": "fake-\(UUID().uuidString.prefix(8))"}
                """)
        case .fail(let status, let retryAfter):
            let (name, message) = statusText(status)
            return error(status, name, message, headers: retryAfter.map { [("Retry-After", $0)] } ?? [])
        case .rateLimited(let retryAfter, let retryInfo):
            let details =
                retryInfo.map {
                    #", "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "\#($0)"}]"#
                } ?? ""
            return .response(
                status: 429, headers: retryAfter.map { [("Retry-After", $0)] } ?? [],
                body: """
                    {"error": {"code": 429, "message": "You exceeded your current quota, please check your plan and billing details.", "status": "RESOURCE_EXHAUSTED"\(details)}}
                    """)
        case .hang:
            return .hang
        case .blockedPrompt(let reason):
            return ok(
                """
                {"promptFeedback": {"blockReason": "\(reason)",
                  "safetyRatings": [{"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH"}]},
                 "usageMetadata": {"promptTokenCount": 9, "totalTokenCount": 9}, "modelVersion": "\(model)"}
                """)
        case .blockedCandidate(let reason):
            return ok(
                """
                {"candidates": [{"finishReason": "\(reason)", "index": 0,
                  "safetyRatings": [{"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH", "blocked": true}]}],
                 "usageMetadata": {"promptTokenCount": 12, "totalTokenCount": 12}, "modelVersion": "\(model)"}
                """)
        case .malformed:
            return ok(#"{"candidates": [{"content": {"parts": [{"text": "Hang in th"#)
        case .dropConnection:
            return .drop
        }
    }

    private static func ok(_ body: String) -> FakeGeminiReply { .response(status: 200, headers: [], body: body) }

    private static func error(
        _ status: Int, _ name: String, _ message: String,
        headers: [(String, String)] = []
    ) -> FakeGeminiReply {
        .response(
            status: status, headers: headers,
            body: #"{"error": {"code": \#(status), "message": \#(quoted(message)), "status": "\#(name)"}}"#)
    }

    private static func statusText(_ status: Int) -> (String, String) {
        switch status {
        case 500:
            (
                "INTERNAL",
                "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting"
            )
        case 503: ("UNAVAILABLE", "The model is overloaded. Please try again later.")
        case 504: ("DEADLINE_EXCEEDED", "The request timed out. Please try again.")
        case 408: ("DEADLINE_EXCEEDED", "Request timed out.")
        case 400: ("INVALID_ARGUMENT", "Request contains an invalid argument.")
        case 403: ("PERMISSION_DENIED", "The caller does not have permission")
        default: ("UNKNOWN", "Unknown error.")
        }
    }

    private static func quoted(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }
}
