import Foundation

// Gemini's REST wire format (`v1beta/models/{model}:generateContent`), reduced to the fields
// SafeWalk sends or reads. Field names are Google's camelCase JSON names; unknown response
// fields are ignored, so additions on Google's side never break decoding.

/// One turn of a conversation, or the system instruction (which carries no role).
public struct GeminiContent: Codable, Hashable, Sendable {
    /// `user` or `model`; absent on `systemInstruction`.
    public var role: String?
    public var parts: [GeminiPart]

    public init(role: String?, parts: [GeminiPart]) {
        self.role = role
        self.parts = parts
    }
}

/// A piece of content. SafeWalk only exchanges text; other part kinds decode with `text` nil.
public struct GeminiPart: Codable, Hashable, Sendable {
    public var text: String?

    public init(text: String) { self.text = text }
}

/// `generationConfig`: how long and how varied the answer may be.
public struct GeminiGenerationConfig: Codable, Hashable, Sendable {
    public var temperature: Double?
    public var maxOutputTokens: Int?
    public var candidateCount: Int?

    public init(temperature: Double?, maxOutputTokens: Int?, candidateCount: Int?) {
        self.temperature = temperature
        self.maxOutputTokens = maxOutputTokens
        self.candidateCount = candidateCount
    }
}

/// The body of `POST …:generateContent`.
public struct GenerateContentRequest: Codable, Hashable, Sendable {
    public var contents: [GeminiContent]
    public var systemInstruction: GeminiContent?
    public var generationConfig: GeminiGenerationConfig?

    public init(
        contents: [GeminiContent], systemInstruction: GeminiContent?,
        generationConfig: GeminiGenerationConfig?
    ) {
        self.contents = contents
        self.systemInstruction = systemInstruction
        self.generationConfig = generationConfig
    }
}

/// A successful (HTTP 200) answer. No candidates means the prompt itself was refused
/// (see `promptFeedback.blockReason`).
public struct GenerateContentResponse: Codable, Hashable, Sendable {
    public struct Candidate: Codable, Hashable, Sendable {
        /// Absent when the candidate was blocked before any text was produced.
        public var content: GeminiContent?
        /// `STOP`, `MAX_TOKENS`, `SAFETY`, `RECITATION`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII`, …
        public var finishReason: String?
        public var index: Int?
    }

    public struct PromptFeedback: Codable, Hashable, Sendable {
        /// `SAFETY`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `OTHER`, …; set only when blocked.
        public var blockReason: String?
    }

    public var candidates: [Candidate]?
    public var promptFeedback: PromptFeedback?
    public var modelVersion: String?
}

/// The body Google sends with every error status: `{"error": {code, message, status, details}}`.
public struct GeminiErrorResponse: Codable, Hashable, Sendable {
    public struct Body: Codable, Hashable, Sendable {
        public var code: Int?
        public var message: String?
        /// The canonical gRPC status name, e.g. `RESOURCE_EXHAUSTED`, `UNAVAILABLE`.
        public var status: String?
        public var details: [Detail]?
    }

    /// An entry of `details`; only `google.rpc.RetryInfo` (`retryDelay: "17s"`) matters here.
    public struct Detail: Codable, Hashable, Sendable {
        public var type: String?
        public var retryDelay: String?

        enum CodingKeys: String, CodingKey {
            case type = "@type"
            case retryDelay
        }
    }

    public var error: Body
}
