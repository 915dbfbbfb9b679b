import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SafeWalkWebKit
import TestSupport
import Testing

@Suite(.holdsResources) struct HostileHTTPTests {
    let signUp = #"{"username":"alice","email":"alice@example.org","password":"walk-safe-1"}"#

    @Test func anOversizedBodyIsRefusedBeforeItIsRead() async throws {
        let web = try WebFixture()
        try await web.live { client in
            let padding = String(repeating: " ", count: JSONBody.defaultLimit)
            let response = try await client.send(.post, "/v1/accounts", json: signUp + padding)
            #expect(response.status == .contentTooLarge && response.refusal?.reason == "tooLarge")
            #expect(response.refusal?.field == nil)
            // The connection still serves the next request.
            #expect(try await client.signUp("alice").status == .created)
        }
    }

    @Test func aBodyThatIsNotDeclaredJSONIsRefused() async throws {
        let web = try WebFixture()
        try await web.live { client in
            for type in [
                "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                "application/json; charset=latin1", "application/jsonx",
            ] {
                let response = try await client.send(.post, "/v1/accounts", json: signUp, headers: [.contentType: type])
                #expect(response.status == .unsupportedMediaType, "\(type)")
                #expect(response.refusal?.reason == "unsupportedMediaType")
            }
            let none = try await client.execute(uri: "/v1/accounts", method: .post, body: ByteBuffer(string: signUp))
            #expect(none.status == .unsupportedMediaType)
            let declared = try await client.send(
                .post, "/v1/accounts", json: signUp, headers: [.contentType: "Application/JSON; charset=UTF-8"])
            #expect(declared.status == .created)
        }
    }

    @Test func invalidUTF8AndMalformedJSONAreFieldlessBadRequests() async throws {
        let web = try WebFixture()
        try await web.live { client in
            var invalid = ByteBuffer(string: #"{"username":"al"#)
            invalid.writeBytes([0xC3, 0x28, 0xFF])
            invalid.writeString(#"ice","email":"a@example.org","password":"walk-safe-1"}"#)
            let utf8 = try await client.execute(
                uri: "/v1/accounts", method: .post, headers: [.contentType: "application/json"], body: invalid)
            #expect(utf8.status == .badRequest && utf8.refusal?.reason == "invalidUTF8" && utf8.refusal?.field == nil)
            for body in [
                "", "{", "[1,2]", "\"alice\"", "null", #"{"username":"alice""#, String(repeating: "[", count: 5_000),
            ] {
                let response = try await client.send(.post, "/v1/accounts", json: body)
                #expect(response.status == .badRequest, "\(body.prefix(20))")
                #expect(response.refusal?.reason == "malformedJSON" && response.refusal?.field == nil)
            }
            #expect(try await web.accounts.database.accountCount() == 0)
        }
    }

    @Test func unknownRoutesAndMethodsAreJSONNotFound() async throws {
        let web = try WebFixture()
        try await web.live { client in
            for (method, uri) in [
                (HTTPRequest.Method.get, "/nothing"), (.post, "/"), (.get, "/v1/accounts"),
                (.post, "/v1/accounts/alice"),
                (.get, "/v1/sessions"), (.get, "/../../etc/passwd"), (.get, "/v1/accounts/alice/password"),
            ] {
                let response = try await client.execute(uri: uri, method: method)
                #expect(response.status == .notFound, "\(method) \(uri)")
                #expect(response.refusal?.reason == "notFound")
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            }
        }
    }

    @Test func aThousandHostileSignUpsLeaveTheStoreConsistent() async throws {
        let web = try WebFixture(settings: SignUpHTTPTests.unlimited)
        try await web.live { client in
            let bodies = [
                #"{"username":"u","email":"u@example.org","password":7}"#, "{\"username\":\"\u{0}\"}",
                #"{"username":"_x","email":"x@example.org","password":"walk-safe-1"}"#,
                #"{"username":"x","email":"x@example.org","password":"walk-safe-1","username":"y"}"#,
                String(repeating: "{\"a\":", count: 300),
            ]
            for index in 0..<1_000 {
                let response = try await client.send(.post, "/v1/accounts", json: bodies[index % bodies.count])
                #expect(response.status.code < 500 || response.status == .serviceUnavailable)
                #expect(response.refusal != nil || response.status == .created)
            }
            // The store holds at most the one well-formed sign-up among them.
            #expect(try await web.accounts.database.accountCount() <= 1)
            #expect(try await client.signUp("alice").status == .created)
        }
    }
}
