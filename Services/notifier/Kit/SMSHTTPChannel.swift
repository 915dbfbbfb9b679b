import AsyncHTTPClient
import Foundation
import SafeWalkCore

/// `sms-http`: one gateway request per recipient (see ``SMSGatewayConfiguration``).
///
/// 2xx is sent. 408, 429, 5xx and network errors are transient (retried with backoff); any
/// other status is permanent (a rejected number or bad credentials will not improve). The
/// reason quotes the gateway's own error (Twilio's `code` and `message`), with the number masked.
/// Every attempt at one recipient carries the same ``DeliveryIdempotencyKey``, so a gateway that
/// honours it never sends a retried text twice.
public struct SMSHTTPChannel: NotificationChannel {
    public let name = "sms-http"
    let configuration: SMSGatewayConfiguration
    let publicURL: String?
    let client: HTTPClient

    /// - Parameter publicURL: `SAFEWALK_PUBLIC_URL`, for each contact's live link and the
    ///   `{callback}` placeholder; nil sends texts without either.
    public init(configuration: SMSGatewayConfiguration, publicURL: String? = nil, client: HTTPClient = .shared) {
        self.configuration = configuration
        self.publicURL = publicURL
        self.client = client
    }

    public func targets(for plan: DeliveryPlan) -> [DeliveryTarget] { DeliveryTarget.contacts(of: plan) }

    public func send(_ target: DeliveryTarget, plan: DeliveryPlan, event: EscalationEvent) async throws(ChannelFailure)
    {
        guard let phone = target.address else { throw .permanent("no number") }
        let ref = plan.recipients.first { $0.phone == phone }?.ref
        let rendered = configuration.request(
            phone: phone, message: SMSText.body(plan: plan, phone: phone, publicURL: publicURL),
            callback: SMSText.callback(publicURL: publicURL, ref: ref),
            idempotencyKey: DeliveryIdempotencyKey.key(escalationId: event.id, channel: name, target: target.key))
        var request = HTTPClientRequest(url: rendered.url)
        request.method = .init(rawValue: rendered.method)
        for (name, value) in rendered.headers.sorted(by: { $0.key < $1.key }) {
            request.headers.add(name: name, value: value)
        }
        if let body = rendered.body { request.body = .bytes(Array(body)) }
        let status: Int
        let responseBody: Data
        do {
            let response = try await client.execute(
                request, timeout: .milliseconds(Int64(configuration.timeout * 1000)))
            status = Int(response.status.code)
            let buffer = try await response.body.collect(upTo: 64 * 1024)
            responseBody = Data(buffer.readableBytesView)
        } catch {
            throw .transient(Self.scrub("network: \(error)", phone: phone))
        }
        if (200..<300).contains(status) { return }
        let reason = Self.scrub("HTTP \(status)" + Self.gatewayError(responseBody), phone: phone)
        if status == 408 || status == 429 || status >= 500 { throw .transient(reason) }
        throw .permanent(reason)
    }

    /// `: Twilio error 21211: The 'To' number ... is not a valid phone number.` from a JSON
    /// error body with `code` and/or `message`; a short excerpt of any other body.
    static func gatewayError(_ body: Data) -> String {
        if let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] {
            let code = (object["code"] as? NSNumber).map { "error \($0.intValue)" } ?? (object["code"] as? String)
            let message = (object["message"] as? String) ?? (object["error"] as? String)
            let parts = [code, message].compactMap { $0 }
            if !parts.isEmpty { return ": " + parts.joined(separator: ": ") }
        }
        guard let text = String(data: body.prefix(200), encoding: .utf8), !text.isEmpty else { return "" }
        return ": " + text.replacingOccurrences(of: "\n", with: " ")
    }

    /// Gateways quote the number back in errors; receipts must not carry it in full.
    static func scrub(_ text: String, phone: String) -> String {
        let masked = PhoneNumber.masked(phone)
        var result = text.replacingOccurrences(of: phone, with: masked)
        let digits = phone.hasPrefix("+") ? String(phone.dropFirst()) : phone
        if digits.count >= 7 { result = result.replacingOccurrences(of: digits, with: masked) }
        return result
    }
}
