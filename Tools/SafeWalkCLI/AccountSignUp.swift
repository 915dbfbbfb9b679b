import AsyncHTTPClient
import Foundation
import NIOCore

/// `safewalk user add` for a walker: the same `POST /v1/accounts` a person's sign-up makes, so the
/// CLI gets every rule the web service enforces (unique names and e-mails, the password rule, the
/// rate limit) and creates the broker login the same way.
public struct AccountSignUp: Sendable {
    public var web: URL
    public var timeout: Double

    public init(web: URL, timeout: Double = 15) {
        self.web = web
        self.timeout = timeout
    }

    /// What the web service answered when it refused, as one sentence.
    public struct Refusal: Decodable, Sendable {
        public var error: Detail
        public struct Detail: Decodable, Sendable {
            public var field: String?
            public var reason: String
            public var message: String?
        }

        var sentence: String {
            let subject = error.field.map { "\($0): " } ?? ""
            return subject + (error.message ?? error.reason)
        }
    }

    struct Body: Encodable {
        var username: String
        var email: String
        var password: String
    }

    /// Creates the account; throws a ``CLIError`` naming the field and reason on a refusal.
    public func create(username: String, email: String, password: String, client: HTTPClient = .shared)
        async throws(CLIError)
    {
        let url = web.appendingPathComponent("v1/accounts")
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        do {
            let body = try JSONEncoder().encode(Body(username: username, email: email, password: password))
            request.body = .bytes(ByteBuffer(bytes: body))
        } catch {
            throw .invalidInput("cannot encode the sign-up: \(error)")
        }
        let status: UInt
        let answer: ByteBuffer
        do {
            let response = try await client.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
            status = response.status.code
            answer = try await response.body.collect(upTo: 64 * 1024)
        } catch {
            throw .noAnswer(what: "the web service at \(web.absoluteString)", seconds: timeout)
        }
        try Self.judge(status: status, body: Data(answer.readableBytesView))
    }

    /// Turns the web service's answer into success or a readable ``CLIError``.
    public static func judge(status: UInt, body: Data) throws(CLIError) {
        if (200..<300).contains(status) { return }
        if let refusal = try? JSONDecoder().decode(Refusal.self, from: body) {
            throw .refused("sign-up refused (HTTP \(status)): \(refusal.sentence)")
        }
        throw .refused("sign-up refused (HTTP \(status))")
    }

    /// A password that meets the sign-up rule (a digit and a special character among 20 random
    /// characters), for when the operator gives none; printed once.
    public static func generatedPassword() -> String {
        var generator = SystemRandomNumberGenerator()
        func pick(_ set: String) -> Character {
            let characters = Array(set)
            return characters[Int.random(in: characters.indices, using: &generator)]
        }
        var characters = (0..<17).map { _ in pick("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ") }
        characters += [pick("23456789"), pick("23456789"), pick("-_.!@#%+=")]
        characters.shuffle(using: &generator)
        return String(characters)
    }
}
