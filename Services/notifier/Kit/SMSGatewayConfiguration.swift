import Foundation
import SafeWalkCore

/// A generic HTTP SMS gateway, configured the way Traccar configures its `sms.http.*`: a URL,
/// a method, headers (e.g. `Authorization`), optional Basic credentials and a body template
/// with `{phone}` and `{message}`. Twilio's Messages API, for instance:
///
///     SAFEWALK_SMS_URL=https://api.twilio.com/2010-04-01/Accounts/AC123/Messages.json
///     SAFEWALK_SMS_USER=AC123   SAFEWALK_SMS_PASSWORD=<auth token>
///     SAFEWALK_SMS_TEMPLATE=From=%2B15125550100&To={phone}&Body={message}
///
/// `{callback}` is the text's status-callback URL, `{public}/v1/gateway/sms/status?ref={ref}`
/// (`SAFEWALK_PUBLIC_URL`; empty without it), so that `web` can hand the gateway's delivery
/// report back to the notifier; for Twilio add `&StatusCallback={callback}` to the template.
public struct SMSGatewayConfiguration: Sendable, Hashable {
    public enum Format: String, Sendable, Hashable { case form, json }

    public var url: String
    public var method: String
    /// Extra headers, in order; a `Content-Type` here overrides the format's default.
    public var headers: [(name: String, value: String)]
    /// Basic authentication, added as an `Authorization` header.
    public var user: String?
    public var password: String?
    public var template: String
    public var format: Format
    /// Per request, in seconds.
    public var timeout: Double

    public init(
        url: String, method: String = "POST", headers: [(name: String, value: String)] = [],
        user: String? = nil, password: String? = nil,
        template: String = "To={phone}&Body={message}", format: Format? = nil, timeout: Double = 10
    ) {
        self.url = url
        self.method = method.uppercased()
        self.headers = headers
        self.user = user
        self.password = password
        self.template = template
        // As Traccar does: a template that looks like JSON is sent as JSON.
        self.format = format ?? (template.trimmingCharacters(in: .whitespaces).hasPrefix("{\"") ? .json : .form)
        self.timeout = timeout
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.url == rhs.url && lhs.method == rhs.method && lhs.user == rhs.user && lhs.password == rhs.password
            && lhs.template == rhs.template && lhs.format == rhs.format && lhs.timeout == rhs.timeout
            && lhs.headers.map(\.name) == rhs.headers.map(\.name)
            && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(url); hasher.combine(template) }
}

/// One rendered gateway request; pure, so the wire format is unit-tested byte for byte.
public struct SMSRequest: Hashable, Sendable {
    public var url: String
    public var method: String
    public var headers: [String: String]
    public var body: Data?
}

extension SMSGatewayConfiguration {
    /// The request for one recipient. Placeholders are escaped for where they land:
    /// percent-encoded in the URL and form bodies, JSON-escaped in JSON bodies. `idempotencyKey`
    /// goes out as ``DeliveryIdempotencyKey/header`` (a configured header of that name replaces it).
    public func request(
        phone: String, message: String, callback: String = "", idempotencyKey: String? = nil
    ) -> SMSRequest {
        let url = Self.fill(
            self.url, phone: PercentEncoding.encode(phone), message: PercentEncoding.encode(message),
            callback: PercentEncoding.encode(callback))
        var headers: [String: String] = [:]
        if let idempotencyKey { headers[DeliveryIdempotencyKey.header] = idempotencyKey }
        var body: Data?
        if method != "GET" && method != "HEAD" {
            switch format {
            case .form:
                headers["Content-Type"] = "application/x-www-form-urlencoded"
                body = Data(
                    Self.fill(
                        template, phone: PercentEncoding.encode(phone),
                        message: PercentEncoding.encode(message), callback: PercentEncoding.encode(callback)
                    ).utf8)
            case .json:
                headers["Content-Type"] = "application/json"
                body = Data(
                    Self.fill(
                        template, phone: Self.jsonEscaped(phone), message: Self.jsonEscaped(message),
                        callback: Self.jsonEscaped(callback)
                    ).utf8)
            }
        }
        if let user {
            let credentials = Data("\(user):\(password ?? "")".utf8).base64EncodedString()
            headers["Authorization"] = "Basic \(credentials)"
        }
        // Configured headers replace defaults of the same name, case-insensitively.
        for header in self.headers {
            for key in headers.keys where key.lowercased() == header.name.lowercased() { headers[key] = nil }
            headers[header.name] = header.value
        }
        return SMSRequest(url: url, method: method, headers: headers, body: body)
    }

    static func fill(_ text: String, phone: String, message: String, callback: String = "") -> String {
        // One pass, so a `{phone}` typed inside the message is never substituted again.
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let tail = rest[open...]
            if tail.hasPrefix("{phone}") {
                result += phone
                rest = tail.dropFirst("{phone}".count)
            } else if tail.hasPrefix("{message}") {
                result += message
                rest = tail.dropFirst("{message}".count)
            } else if tail.hasPrefix("{callback}") {
                result += callback
                rest = tail.dropFirst("{callback}".count)
            } else {
                result += "{"
                rest = tail.dropFirst()
            }
        }
        return result + rest
    }

    /// The inside of a JSON string literal (RFC 8259 §7).
    static func jsonEscaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
