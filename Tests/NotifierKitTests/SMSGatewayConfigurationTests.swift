import Foundation
import NotifierKit
import Testing

@Suite("SMS gateway requests rendered from the Traccar-style template")
struct SMSGatewayConfigurationTests {
    @Test func twilioFormBodyIsPercentEncodedWithBasicAuth() throws {
        let config = SMSGatewayConfiguration(
            url: "https://api.twilio.com/2010-04-01/Accounts/AC1/Messages.json", user: "AC1", password: "tok",
            template: "From=%2B15125550100&To={phone}&Body={message}")
        let request = config.request(phone: "+15125550101", message: "Help & now: 100% 🚨")
        #expect(config.format == .form)
        #expect(request.method == "POST")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(request.headers["Authorization"] == "Basic " + Data("AC1:tok".utf8).base64EncodedString())
        let body = String(decoding: try #require(request.body), as: UTF8.self)
        #expect(body == "From=%2B15125550100&To=%2B15125550101&Body=Help%20%26%20now%3A%20100%25%20%F0%9F%9A%A8")
    }

    @Test func jsonTemplateIsDetectedAndEscaped() throws {
        let config = SMSGatewayConfiguration(url: "http://gw/send", template: #"{"to":"{phone}","text":"{message}"}"#)
        let request = config.request(phone: "+15125550101", message: "say \"hi\"\nnow\u{1}")
        #expect(config.format == .json)
        #expect(request.headers["Content-Type"] == "application/json")
        let body = try #require(request.body)
        let decoded = try #require(try JSONSerialization.jsonObject(with: body) as? [String: String])
        #expect(decoded == ["to": "+15125550101", "text": "say \"hi\"\nnow\u{1}"])
    }

    @Test func configuredHeadersOverrideDefaultsCaseInsensitively() {
        let config = SMSGatewayConfiguration(
            url: "http://gw/send", headers: [("authorization", "Bearer k"), ("content-type", "text/plain")],
            user: "u", password: "p")
        let headers = config.request(phone: "+1", message: "m").headers
        #expect(headers == ["authorization": "Bearer k", "content-type": "text/plain"])
    }

    @Test func theIdempotencyKeyIsOnePerDeliveryAndNamesNoNumber() {
        let key = DeliveryIdempotencyKey.key(escalationId: "esc-1", channel: "sms-http", target: "+15125550101")
        #expect(key == DeliveryIdempotencyKey.key(escalationId: "esc-1", channel: "sms-http", target: "+15125550101"))
        let others = [
            DeliveryIdempotencyKey.key(escalationId: "esc-2", channel: "sms-http", target: "+15125550101"),
            DeliveryIdempotencyKey.key(escalationId: "esc-1", channel: "webhook", target: "+15125550101"),
            DeliveryIdempotencyKey.key(escalationId: "esc-1", channel: "sms-http", target: "+15125550102"),
            // The fields cannot run into each other: "esc-1" + "sms" is not "esc-1s" + "ms".
            DeliveryIdempotencyKey.key(escalationId: "esc-1s", channel: "ms-http", target: "+15125550101"),
        ]
        #expect(Set(others + [key]).count == 5)
        #expect(key.count == 64 && key.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(!key.contains("5550101"))

        let config = SMSGatewayConfiguration(url: "http://gw/send")
        #expect(
            config.request(phone: "+15125550101", message: "m", idempotencyKey: key).headers["Idempotency-Key"] == key)
        #expect(config.request(phone: "+15125550101", message: "m").headers["Idempotency-Key"] == nil)
    }

    @Test func getGatewaysGetPlaceholdersInTheURLAndNoBody() {
        let config = SMSGatewayConfiguration(url: "http://gw/send?to={phone}&text={message}", method: "get")
        let request = config.request(phone: "+15125550101", message: "a b")
        #expect(request.url == "http://gw/send?to=%2B15125550101&text=a%20b")
        #expect(request.method == "GET")
        #expect(request.body == nil)
    }

    @Test func placeholdersInsideTheMessageAreNotExpandedAgain() {
        let config = SMSGatewayConfiguration(url: "http://gw", template: "to={phone}&m={message}&x={other}")
        let body = String(decoding: config.request(phone: "+1", message: "{phone}").body!, as: UTF8.self)
        #expect(body == "to=%2B1&m=%7Bphone%7D&x={other}")
    }
}
