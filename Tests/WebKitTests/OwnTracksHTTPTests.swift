import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SafeWalkCore
import SafeWalkWebKit
import TestSupport
import Testing

@Suite(.holdsResources) struct OwnTracksHTTPTests {
    @Test func theConfigurationUsesAFreshDeviceLoginAndTheDocumentedKeys() async throws {
        let web = try WebFixture()
        try await web.live { client in
            try await client.signUp("alice")
            let session = try await client.session("alice")
            let response = try await client.send(.get, "/v1/accounts/alice/owntracks", session: session)
            #expect(response.status == .ok && response.headers[.cacheControl] == "no-store")
            let config = try #require(response.json["config"] as? [String: Any])
            #expect(config["_type"] as? String == "configuration")
            #expect(config["mode"] as? Int == 0)
            #expect(config["host"] as? String == "mqtt.example.org")
            #expect(config["port"] as? Int == 8883)
            #expect(config["tls"] as? Bool == true)
            #expect(config["auth"] as? Bool == true)
            #expect(config["username"] as? String == "alice.owntracks")
            #expect(config["deviceId"] as? String == "phone")
            #expect(config["tid"] as? String == "al")
            #expect(config["clientId"] as? String == "owntracks-alice")
            #expect(config["pubTopicBase"] as? String == "owntracks/alice/%d")
            #expect(config["subTopic"] as? String == "owntracks/alice/phone/cmd")
            // The device's own password, as broker-admin was told; never the account's.
            let password = try #require(config["password"] as? String)
            #expect(password.count == 32 && password != "walk-safe-1")
            #expect(web.broker.state.withLock { $0.devices["alice"] } == password)
            let command = try #require(web.broker.state.withLock { $0.commands.last })
            #expect(command.op == .setDevicePassword && command.user.rawValue == "alice")
        }
    }

    @Test func theLinkCarriesTheSameConfigurationInline() async throws {
        let web = try WebFixture()
        try await web.live { client in
            try await client.signUp("alice")
            let session = try await client.session("alice")
            let response = try await client.send(.get, "/v1/accounts/alice/owntracks", session: session)
            let link = try #require(response.json["link"] as? String)
            #expect(link.hasPrefix("owntracks:///config?inline="))
            let components = try #require(URLComponents(string: link))
            #expect(components.scheme == "owntracks" && components.path == "/config")
            let inline = try #require(components.queryItems?.first { $0.name == "inline" }?.value)
            let decoded = try #require(Data(base64Encoded: inline))
            let fromLink = try #require(try JSONSerialization.jsonObject(with: decoded) as? NSDictionary)
            let config = try #require(response.json["config"] as? NSDictionary)
            #expect(fromLink == config)
            #expect(!link.contains("+") && !link.dropFirst("owntracks:///config?inline=".count).contains("/"))
        }
    }

    @Test func askingAgainRevokesThePreviousDevicePassword() async throws {
        let web = try WebFixture()
        try await web.live { client in
            try await client.signUp("alice")
            let session = try await client.session("alice")
            let first = try await client.send(.get, "/v1/accounts/alice/owntracks", session: session)
            let second = try await client.send(.get, "/v1/accounts/alice/owntracks", session: session)
            let passwords = [first, second].compactMap { ($0.json["config"] as? [String: Any])?["password"] as? String }
            #expect(passwords.count == 2 && passwords[0] != passwords[1])
            #expect(web.broker.state.withLock { $0.devices["alice"] } == passwords[1])
        }
    }

    @Test func setUpsAreLimitedPerAccountSoAScriptCannotKeepBrokerAdminBusy() async throws {
        var settings = SignUpHTTPTests.unlimited
        settings.limits.rules[.deviceSetupPerAccount] = RateRule(burst: 2, per: .seconds(600))
        let web = try WebFixture(settings: settings)
        try await web.live { client in
            try await client.signUp("alice")
            try await client.signUp("bob")
            let alice = try await client.session("alice")
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<3 {
                statuses.append(try await client.send(.get, "/v1/accounts/alice/owntracks", session: alice).status)
            }
            #expect(statuses == [.ok, .ok, .tooManyRequests])
            let bob = try await client.session("bob")
            #expect(try await client.send(.get, "/v1/accounts/bob/owntracks", session: bob).status == .ok)
            let setUps = web.broker.state.withLock { $0.commands.filter { $0.op == .setDevicePassword }.count }
            #expect(setUps == 3, "the refused request must not reach broker-admin")
        }
    }

    @Test func theConfigurationEncodesTheWalkerIntoTheTopics() throws {
        let config = OwnTracksConfiguration(
            walker: try WalkerID("Bob_2"), devicePassword: "x", broker: PublicBroker(host: "h", port: 1883, tls: false))
        let json = String(decoding: try SafeWalkJSON.encode(config), as: UTF8.self)
        #expect(json.contains(#""_type":"configuration""#) && json.contains(#""tls":false"#))
        #expect(config.pubTopicBase == "owntracks/Bob_2/%d" && config.username == "Bob_2.owntracks")
    }
}
