import NotifierKit
import TestSupport

typealias FakeTwilioGateway = FakeSMSGateway

extension FakeSMSGateway {
    /// The gateway configured exactly as an operator would configure Twilio. The timeout is long:
    /// a full test run on two cores once kept this Python server from answering within 5 s, the
    /// notifier rightly sent again, and a test of something else saw the contact texted twice.
    /// Tests of a late answer set their own.
    var configuration: SMSGatewayConfiguration {
        SMSGatewayConfiguration(
            url: messagesURL, user: Self.sid, password: Self.token, template: Self.template, timeout: 30)
    }
}
