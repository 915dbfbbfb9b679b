import AsyncHTTPClient
import Foundation
import SafeWalkCore

/// `webhook`: POSTs the escalation and its plan as JSON, signed like GitHub's webhooks:
/// `X-SafeWalk-Signature-256: sha256=<hex HMAC-SHA256 of the exact body, keyed with the secret>`.
/// `X-SafeWalk-Escalation` carries the id and `Idempotency-Key` the delivery's key
/// (``DeliveryIdempotencyKey``), so the receiver can de-duplicate retries.
/// Recipients' numbers are masked in the body and the group `sms:` link is left out: the
/// receiver is told whom, not given the numbers.
public struct WebhookChannel: NotificationChannel {
    public let name = "webhook"
    let url: String
    let secret: [UInt8]
    let timeout: Double
    let publicURL: String?
    let client: HTTPClient

    public static let signatureHeader = "X-SafeWalk-Signature-256"

    public init(
        url: String, secret: String, timeout: Double = 10, publicURL: String? = nil, client: HTTPClient = .shared
    ) {
        self.url = url
        self.secret = Array(secret.utf8)
        self.timeout = timeout
        self.publicURL = publicURL
        self.client = client
    }

    public func targets(for plan: DeliveryPlan) -> [DeliveryTarget] {
        [DeliveryTarget(key: "webhook", display: "webhook")]
    }

    /// The body: `{"v":1,"escalation":{...},"plan":{...}}`, sorted keys, so retries are identical;
    /// with `"page"`, the dispatch centre's own live link, when the ladder gave it one.
    public static func body(plan: DeliveryPlan, event: EscalationEvent, publicURL: String? = nil) throws -> Data {
        var masked = plan
        // Contacts' page tokens and callback refs are theirs alone: only masked names go out.
        masked.recipients = plan.recipients.map {
            DeliveryPlan.Recipient(contactID: $0.contactID, name: $0.name, phone: PhoneNumber.masked($0.phone))
        }
        masked.dispatchPage = nil
        masked.code = nil
        let page = publicURL.flatMap { base in plan.dispatchPage.map { "\(base)/i/\($0)" } }
        // The group link lists every number in full; the receiver gets the call action only.
        masked.alert.actions = plan.alert.actions.filter { !$0.url.hasPrefix("sms:") }
        return try SafeWalkJSON.encode(WebhookBody(escalation: event, plan: masked, page: page))
    }

    /// The signature header's value for `body`.
    public static func signature(body: Data, secret: [UInt8]) -> String {
        "sha256=" + HMACSHA256.hex(HMACSHA256.authenticate(Array(body), key: secret))
    }

    public func send(_ target: DeliveryTarget, plan: DeliveryPlan, event: EscalationEvent) async throws(ChannelFailure)
    {
        let body: Data
        do { body = try Self.body(plan: plan, event: event, publicURL: publicURL) } catch {
            throw .permanent("body could not be encoded")
        }
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "X-SafeWalk-Escalation", value: event.id)
        request.headers.add(
            name: DeliveryIdempotencyKey.header,
            value: DeliveryIdempotencyKey.key(escalationId: event.id, channel: name, target: target.key))
        request.headers.add(name: Self.signatureHeader, value: Self.signature(body: body, secret: secret))
        request.body = .bytes(Array(body))
        let status: Int
        do {
            let response = try await client.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
            status = Int(response.status.code)
            _ = try await response.body.collect(upTo: 64 * 1024)
        } catch {
            throw .transient("network: \(error)")
        }
        if (200..<300).contains(status) { return }
        if status == 408 || status == 429 || status >= 500 { throw .transient("HTTP \(status)") }
        throw .permanent("HTTP \(status)")
    }
}

struct WebhookBody: Encodable {
    var v = 1
    var escalation: EscalationEvent
    var plan: DeliveryPlan
    var page: String?
}
