import NotifierKit
import TestSupport

typealias FakeTwilioGateway = FakeSMSGateway

extension FakeSMSGateway {
    /// The gateway configured exactly as an operator would configure Twilio.
    var configuration: SMSGatewayConfiguration {
        SMSGatewayConfiguration(
            url: messagesURL, user: Self.sid, password: Self.token, template: Self.template, timeout: 5)
    }
}
