import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// Someone in the account stories: signed up and signed in over HTTP from an address of their
/// own, with the password their phone also logs in to the broker with.
struct Person: Sendable {
    let name: String
    let password: String
    let web: WebClient
    let session: WebSession

    /// Signs `name` up and in; fails the test unless both succeed.
    static func signUp(_ name: String, password: String = "walk-safe-1", on stack: ServiceStack) async throws
        -> Person
    {
        let web = stack.web()
        let created = try await web.signUp(name, password: password)
        try #require(created.status == 201, "sign-up \(name): \(created.status) \(created.text)")
        let signedIn = try await web.signIn(name, password)
        let session = try #require(signedIn.session, "sign-in \(name): \(signedIn.status) \(signedIn.text)")
        return Person(name: name, password: password, web: web, session: session)
    }

    /// The phone: logged in to the broker as the walker, with the account's password.
    func phone(on stack: ServiceStack) async throws -> MQTTClient {
        try await stack.broker.client(
            "\(name)-phone-\(UUID().uuidString.prefix(6))", username: name, password: password)
    }

    func topic(_ kind: Topic.Kind) throws -> String {
        try #require(Topic(kind, walker: WalkerID(name))).name()
    }

    /// `PUT /v1/accounts/{user}/password`.
    func changePassword(from old: String, to new: String, csrf: Bool = true) async throws -> WebResponse {
        try await web.send(
            "PUT", "/v1/accounts/\(name)/password", json: ["oldPassword": old, "newPassword": new], session: session,
            csrf: csrf)
    }

    /// `GET /v1/accounts/{user}/owntracks`, for `user` (this person's own account by default).
    func ownTracks(of user: String? = nil, csrf: Bool = true) async throws -> WebResponse {
        try await web.send("GET", "/v1/accounts/\(user ?? name)/owntracks", json: nil, session: session, csrf: csrf)
    }

    /// The OwnTracks set-up, decoded; fails the test unless web gave one.
    func ownTracksSetup() async throws -> (setup: OwnTracksSetup, answeredAt: ContinuousClock.Instant) {
        let response = try await ownTracks()
        let answeredAt = ContinuousClock.now
        let setup = try #require(response.decoded(OwnTracksSetup.self), "\(response.status) \(response.text)")
        return (setup, answeredAt)
    }

    /// `DELETE /v1/accounts/{user}`.
    func deleteAccount() async throws -> WebResponse {
        try await web.send("DELETE", "/v1/accounts/\(name)", json: nil, session: session)
    }
}

/// What `GET /v1/accounts/{user}/owntracks` answers, read the way the OwnTracks app reads it
/// (docs/services/web.md): decoded here from the JSON, not from web's own types.
struct OwnTracksSetup: Decodable, Sendable {
    let config: Config
    let link: String

    struct Config: Decodable, Sendable {
        let type: String
        let mode: Int
        let host: String
        let port: Int
        let tls: Bool
        let username: String
        let password: String
        let deviceId: String
        let clientId: String
        let pubTopicBase: String
        let subTopic: String
        let mqttProtocolLevel: Int

        enum CodingKeys: String, CodingKey {
            case type = "_type"
            case mode, host, port, tls, username, password, deviceId, clientId, pubTopicBase, subTopic
            case mqttProtocolLevel
        }

        /// Where the app publishes its locations: `pubTopicBase` with `%d` = `deviceId`.
        var locationTopic: String { pubTopicBase.replacingOccurrences(of: "%d", with: deviceId) }
    }
}

typealias Refusal = WebResponse.Refusal

extension WebResponse {
    /// The body as text, for failure messages.
    var text: String { String(decoding: body, as: UTF8.self) }
}
