/// Builds the `generateContent` body from a conversation. Gemini wants turns that alternate
/// and start with the user, so consecutive lines by one speaker are merged into one content
/// (one part each) and companion lines before the walker's first are dropped.
enum GeminiRequestBuilder {
    static func request(
        for conversation: [ChatTurn], systemInstruction: String,
        generation: GeminiGenerationConfig
    ) -> GenerateContentRequest {
        var contents: [GeminiContent] = []
        for turn in conversation.drop(while: { $0.speaker == .companion }) {
            let role = turn.speaker == .walker ? "user" : "model"
            if contents.last?.role == role {
                contents[contents.count - 1].parts.append(GeminiPart(text: turn.text))
            } else {
                contents.append(GeminiContent(role: role, parts: [GeminiPart(text: turn.text)]))
            }
        }
        return GenerateContentRequest(
            contents: contents,
            systemInstruction: GeminiContent(role: nil, parts: [GeminiPart(text: systemInstruction)]),
            generationConfig: generation)
    }
}
