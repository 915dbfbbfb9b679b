import Foundation
import SafeWalkCore
import SafeWalkService
import Testing

@testable import CompanionChatKit

@Suite struct GeminiRequestTests {
    /// Encodes with the production encoder and reads back as untyped JSON: the wire shape.
    func wire(_ conversation: [ChatTurn]) throws -> [String: Any] {
        let request = GeminiRequestBuilder.request(
            for: conversation, systemInstruction: "be kind",
            generation: GeminiGenerationConfig(temperature: 0.7, maxOutputTokens: 200, candidateCount: 1))
        return try #require(JSONSerialization.jsonObject(with: SafeWalkJSON.encode(request)) as? [String: Any])
    }

    @Test func theBodyHasGeminisContentsSystemInstructionAndGenerationConfig() throws {
        let json = try wire([ChatTurn(.walker, "hi"), ChatTurn(.companion, "hello!"), ChatTurn(.walker, "it's dark")])
        let contents = try #require(json["contents"] as? [[String: Any]])
        #expect(contents.map { $0["role"] as? String } == ["user", "model", "user"])
        #expect(
            contents.map { (($0["parts"] as? [[String: Any]])?.first?["text"]) as? String } == [
                "hi", "hello!", "it's dark",
            ])
        let system = try #require(json["systemInstruction"] as? [String: Any])
        #expect(system["role"] == nil)
        #expect((system["parts"] as? [[String: Any]])?.first?["text"] as? String == "be kind")
        let generation = try #require(json["generationConfig"] as? [String: Any])
        #expect(generation["maxOutputTokens"] as? Int == 200)
        #expect(generation["temperature"] as? Double == 0.7)
        #expect(generation["candidateCount"] as? Int == 1)
        #expect(Set(json.keys) == ["contents", "systemInstruction", "generationConfig"])
    }

    @Test func turnsAlternateAndStartWithTheWalker() throws {
        let json = try wire([
            ChatTurn(.companion, "Just checking in!"), ChatTurn(.walker, "ok"),
            ChatTurn(.walker, "actually, a car slowed down"),
        ])
        let contents = try #require(json["contents"] as? [[String: Any]])
        #expect(contents.count == 1)
        #expect(contents[0]["role"] as? String == "user")
        #expect(
            (contents[0]["parts"] as? [[String: Any]])?.compactMap { $0["text"] as? String } == [
                "ok", "actually, a car slowed down",
            ])
    }

    @Test func theSystemInstructionKeepsTheCompanionBriefAndPointsToHelp() {
        let instruction = CompanionText.systemInstruction
        #expect(instruction.contains("brief"))
        #expect(instruction.contains(QuickReply.needHelp.text))
        #expect(instruction.contains("911"))
    }
}

@Suite struct GeminiConfigurationTests {
    @Test func defaultsMatchTheDesign() throws {
        let configuration = try GeminiConfiguration(environment: EnvironmentReader([:]))
        #expect(configuration.apiKey == nil)
        #expect(
            configuration.endpoint
                == "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent")
        #expect(configuration.timeout == .seconds(10))
    }

    @Test func environmentOverridesEverySetting() throws {
        let configuration = try GeminiConfiguration(
            environment: EnvironmentReader([
                "GEMINI_API_KEY": "sekret", "SAFEWALK_GEMINI_BASE_URL": "http://127.0.0.1:8080/",
                "SAFEWALK_GEMINI_MODEL": "models/gemini-1.5-flash-8b", "SAFEWALK_GEMINI_TIMEOUT": "2.5",
            ]))
        #expect(configuration.apiKey == "sekret")
        #expect(configuration.endpoint == "http://127.0.0.1:8080/v1beta/models/gemini-1.5-flash-8b:generateContent")
        #expect(configuration.timeout == .milliseconds(2500))
    }

    @Test(arguments: [
        ("SAFEWALK_GEMINI_BASE_URL", "ftp://example.com"), ("SAFEWALK_GEMINI_BASE_URL", "not a url"),
        ("SAFEWALK_GEMINI_MODEL", "../admin"), ("SAFEWALK_GEMINI_MODEL", "gemini:evil"),
        ("SAFEWALK_GEMINI_TIMEOUT", "0"), ("SAFEWALK_GEMINI_TIMEOUT", "900"),
    ])
    func badSettingsAreConfigurationErrorsNamingTheVariable(name: String, value: String) {
        #expect {
            _ = try GeminiConfiguration(environment: EnvironmentReader([name: value]))
        } throws: { error in
            (error as? ConfigurationError)?.description.contains(name) == true
        }
    }

    @Test func chatSettingsHaveDefaultsAndBounds() throws {
        let defaults = try CompanionChatSettings(environment: EnvironmentReader([:]))
        #expect(defaults.historyTurns == 12 && defaults.queueLimit == 32 && defaults.maxWalkers == 10_000)
        let custom = try CompanionChatSettings(
            environment: EnvironmentReader([
                "SAFEWALK_CHAT_HISTORY_TURNS": "4", "SAFEWALK_CHAT_QUEUE_LIMIT": "8", "SAFEWALK_CHAT_MAX_WALKERS": "50",
            ]))
        #expect(custom.historyTurns == 4 && custom.queueLimit == 8 && custom.maxWalkers == 50)
        #expect(throws: ConfigurationError.self) {
            _ = try CompanionChatSettings(environment: EnvironmentReader(["SAFEWALK_CHAT_HISTORY_TURNS": "0"]))
        }
    }

    @Test func theKeyNeverAppearsInTheDescription() {
        let configuration = GeminiConfiguration(apiKey: "AIzaSy-very-secret")
        #expect(!"\(configuration)".contains("AIzaSy"))
        #expect("\(configuration)".contains("redacted"))
    }
}
