import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import SafeWalkWebKit
import Synchronization
import TestSupport
import Testing

/// "I'm on it" from a page's button and from a text message, and the gateway's delivery reports:
/// each becomes one message to the notifier, and only what proves itself does.
@Suite(.serialized, .holdsResources) struct AcknowledgementHTTPTests {
    let mum = (name: "Mum", token: PageToken.mint())
    let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    /// Plays the notifier: records every request and answers it with `answer`.
    func notifier(_ live: LiveFixture, answer: @escaping @Sendable (AcknowledgementRequest) -> AcknowledgementResult)
        async throws -> (Task<Void, any Error>, Seen)
    {
        let requests = try await live.peer.subscribe(
            Topic.acknowledgementRequest.name(prefix: "safewalk"), qos: .atLeastOnce)
        let seen = Seen()
        let task = Task { [peer = live.peer] in
            for await message in requests {
                let request = try SafeWalkJSON.decode(AcknowledgementRequest.self, from: message.payload)
                seen.requests.withLock { $0.append(request) }
                try await peer.publish(
                    Topic.acknowledgementResult.name(prefix: "safewalk"),
                    payload: try SafeWalkJSON.encode(answer(request)))
            }
        }
        return (task, seen)
    }

    func key(in html: String) throws -> String {
        let marker = #"name="key" value=""#
        let start = try #require(html.range(of: marker)).upperBound
        return String(html[start...].prefix { $0 != "\"" })
    }

    @Test func theButtonPublishesTheDigestAndTheAnswerShowsOnThePage() async throws {
        let live = try await LiveFixture.start()
        let (answering, seen) = try await notifier(live) { request in
            AcknowledgementResult(id: request.id, ok: true, walker: LiveFixture.alice, incident: "i-1", by: "Mum")
        }
        defer { answering.cancel() }
        try await live.publish(.ladder(LiveFixture.alice), live.ladder([mum]))
        try await live.serve { client, _ in
            let page = try await live.until(client, "/i/\(mum.token)", is: .ok)
            // A link preview (any client that GETs) acknowledges nothing.
            for agent in ["facebookexternalhit/1.1", "WhatsApp/2.23", "Slackbot-LinkExpanding 1.0", "Mozilla/5.0"] {
                let preview = try await client.execute(
                    uri: "/i/\(mum.token)", method: .get, headers: [.userAgent: agent])
                #expect(preview.status == .ok)
            }
            #expect(try await client.execute(uri: "/i/\(mum.token)/ack", method: .get).status == .methodNotAllowed)
            let wrong = try await client.execute(
                uri: "/i/\(mum.token)/ack", method: .post, headers: form, body: ByteBuffer(string: "key=forged"))
            #expect(wrong.status == .forbidden)
            try await Task.sleep(for: .milliseconds(300))
            #expect(seen.requests.withLock { $0.isEmpty })

            let key = try key(in: page.text)
            let pressed = try await client.execute(
                uri: "/i/\(mum.token)/ack", method: .post, headers: form, body: ByteBuffer(string: "key=\(key)"))
            #expect(pressed.status == .seeOther && pressed.headers[.location] == "/i/\(mum.token)")
            let sent = try #require(seen.requests.withLock { $0.first })
            #expect(sent.via == .page && sent.page == PageToken.digest(mum.token) && sent.phone == nil)
            // The walker names the notifier instance that holds the page (NotifierShare).
            #expect(sent.walker == LiveFixture.alice)
            let after = try await client.execute(uri: "/i/\(mum.token)", method: .get)
            #expect(after.text.contains("You are on it"))
        }
    }

    @Test func aClosedIncidentsButtonSaysTheWalkerIsAlreadySafe() async throws {
        let live = try await LiveFixture.start()
        let (answering, _) = try await notifier(live) { request in
            AcknowledgementResult(id: request.id, ok: false, error: .closed, walker: LiveFixture.alice)
        }
        defer { answering.cancel() }
        try await live.publish(.ladder(LiveFixture.alice), live.ladder([mum]))
        try await live.serve { client, _ in
            let page = try await live.until(client, "/i/\(mum.token)", is: .ok)
            let pressed = try await client.execute(
                uri: "/i/\(mum.token)/ack", method: .post, headers: form,
                body: ByteBuffer(string: "key=\(try key(in: page.text))"))
            #expect(pressed.status == .conflict && pressed.text.contains("alice is already safe"))
            let huge = try await client.execute(
                uri: "/i/\(mum.token)/ack", method: .post, headers: form,
                body: ByteBuffer(string: "key=" + String(repeating: "k", count: 5_000)))
            #expect(huge.status == .contentTooLarge)
            let json = try await client.execute(
                uri: "/i/\(mum.token)/ack", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: "{}"))
            #expect(json.status == .unsupportedMediaType)
        }
    }

    func signed(_ path: String, _ fields: [(String, String)], token: String = LiveFixture.authToken) -> (
        HTTPFields, ByteBuffer
    ) {
        let signature = TwilioSignature.expected(
            authToken: token, url: LiveFixture.publicURL + path, parameters: fields.map { (name: $0.0, value: $0.1) })
        var headers = form
        headers[HTTPField.Name("X-Twilio-Signature")!] = signature
        let body = fields.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        }.joined(separator: "&")
        return (headers, ByteBuffer(string: body))
    }

    @Test func aSignedSMSReplyAcknowledgesAndAForgedOneIsRefused() async throws {
        let live = try await LiveFixture.start()
        let (answering, seen) = try await notifier(live) { request in
            if request.code == "4821" {
                AcknowledgementResult(id: request.id, ok: true, walker: LiveFixture.alice, incident: "i-1", by: "Mum")
            } else if request.phone == "+15125550103" {
                AcknowledgementResult(id: request.id, ok: false, error: .codeNeeded)
            } else {
                AcknowledgementResult(id: request.id, ok: false, error: .unknownRecipient)
            }
        }
        defer { answering.cancel() }
        try await live.serve { client, _ in
            let path = "/v1/gateway/sms/inbound"
            let reply = [
                ("From", "+15125550101"), ("To", "+15125550000"), ("Body", "ok 4821"),
                ("MessageSid", "SM0123456789abcdef0123456789abcdef"),
            ]
            let (headers, body) = signed(path, reply)
            let answered = try await client.execute(uri: path, method: .post, headers: headers, body: body)
            #expect(answered.status == .ok && answered.headers[.contentType]?.hasPrefix("application/xml") == true)
            #expect(
                answered.text.contains(
                    "<Response><Message>Thank you. alice knows you&#39;re on it.</Message></Response>"))
            let sent = try #require(seen.requests.withLock { $0.first })
            #expect(sent.via == .sms && sent.phone == "+15125550101" && sent.code == "4821")
            #expect(sent.id == "SM0123456789abcdef0123456789abcdef")

            let (forgedHeaders, forgedBody) = signed(path, reply, token: "not-the-token")
            let forged = try await client.execute(uri: path, method: .post, headers: forgedHeaders, body: forgedBody)
            #expect(forged.status == .forbidden)
            let unsigned = try await client.execute(uri: path, method: .post, headers: form, body: body)
            #expect(unsigned.status == .forbidden)

            let (otherHeaders, otherBody) = signed(path, [("From", "+15125550102"), ("Body", "OK")])
            let unmatched = try await client.execute(uri: path, method: .post, headers: otherHeaders, body: otherBody)
            #expect(unmatched.text.contains("No open SafeWalk alert matches your reply."))
            let (helpHeaders, helpBody) = signed(path, [("From", "+15125550102"), ("Body", "who is this?")])
            let help = try await client.execute(uri: path, method: .post, headers: helpHeaders, body: helpBody)
            #expect(help.status == .ok && help.text.contains("reply OK"))
            // Several notifier instances: an "OK" without the code is asked for it.
            let (bareHeaders, bareBody) = signed(path, [("From", "+15125550103"), ("Body", "OK")])
            let bare = try await client.execute(uri: path, method: .post, headers: bareHeaders, body: bareBody)
            #expect(bare.status == .ok && bare.text.contains("reply OK and the 4-digit code from the end of the alert"))
            #expect(seen.requests.withLock { $0.count } == 3)
        }
    }

    @Test func aSignedStatusCallbackBecomesAGatewayReceipt() async throws {
        let live = try await LiveFixture.start()
        let receipts = try await live.peer.subscribe(Topic.gatewayReceipt.name(prefix: "safewalk"), qos: .atLeastOnce)
        try await live.serve { client, _ in
            let path = "/v1/gateway/sms/status?ref=0b1c2d3e4f5a6b7c"
            let (headers, body) = signed(
                path, [("MessageSid", "SM1"), ("MessageStatus", "Undelivered"), ("ErrorCode", "30003")])
            let answered = try await client.execute(uri: path, method: .post, headers: headers, body: body)
            #expect(answered.status == .noContent)
            let receipt = try SafeWalkJSON.decode(
                GatewayReceipt.self, from: try #require(try await receipts.first(1).first).payload)
            #expect(
                receipt.ref == "0b1c2d3e4f5a6b7c" && receipt.status == "undelivered" && receipt.errorCode == "30003")
            #expect(receipt.isFailure)

            // Signed for another ref than the one asked: forged.
            let moved = try await client.execute(
                uri: "/v1/gateway/sms/status?ref=ffff", method: .post, headers: headers, body: body)
            #expect(moved.status == .forbidden)
            let badPath = "/v1/gateway/sms/status?ref=a%2Fb"
            let (badHeaders, badBody) = signed(badPath, [("MessageStatus", "delivered")])
            #expect(
                try await client.execute(uri: badPath, method: .post, headers: badHeaders, body: badBody).status
                    == .badRequest)
        }
    }

    @Test func withoutAnAuthTokenTheGatewayRoutesAreNotThere() async throws {
        let live = try await LiveFixture.start { $0.live.twilioAuthToken = nil }
        try await live.serve { client, _ in
            for path in ["/v1/gateway/sms/inbound", "/v1/gateway/sms/status?ref=abc"] {
                let response = try await client.execute(
                    uri: path, method: .post, headers: form, body: ByteBuffer(string: "Body=OK"))
                #expect(response.status == .notFound, "\(path)")
            }
        }
    }
}

/// The requests the fake notifier was sent.
final class Seen: Sendable {
    let requests = Mutex<[AcknowledgementRequest]>([])
}
