import NotifierKit
import SafeWalkCore
import SafeWalkService
import Testing

@Suite("Notifier settings from SAFEWALK_ variables")
struct NotifierSettingsTests {
    @Test func defaultsAreDeviceAndLogWithUTPolice() throws {
        let settings = try Fixtures.settings()
        #expect(settings.channels == ["device", "log"])
        #expect(settings.emergency == EmergencyNumber(label: "Call UT Police", number: "5124714441"))
        #expect(settings.retry == RetryPolicy(maxAttempts: 10, baseDelay: 1, maxDelay: 60))
        #expect(settings.sms == nil)
    }

    @Test func unknownChannelIsAConfigurationError() {
        #expect(throws: ConfigurationError.self) { try Fixtures.settings(["SAFEWALK_CHANNELS": "device,pigeon"]) }
    }

    @Test func smsChannelNeedsAURL() {
        #expect(throws: ConfigurationError.missing(name: "SAFEWALK_SMS_URL", why: "the sms-http channel is enabled")) {
            try Fixtures.settings(["SAFEWALK_CHANNELS": "sms-http"])
        }
    }

    @Test func webhookNeedsASecret() {
        #expect(throws: ConfigurationError.self) {
            try Fixtures.settings(["SAFEWALK_CHANNELS": "webhook", "SAFEWALK_WEBHOOK_URL": "http://x"])
        }
    }

    @Test func smsSettingsAreReadLikeTraccars() throws {
        let settings = try Fixtures.settings([
            "SAFEWALK_CHANNELS": "device, SMS-HTTP",
            "SAFEWALK_SMS_URL": "https://gw.example/send",
            "SAFEWALK_SMS_HEADERS": "Authorization: Bearer abc\\nX-Tenant: safewalk",
            "SAFEWALK_SMS_TEMPLATE": #"{"to":"{phone}","text":"{message}"}"#,
        ])
        let sms = try #require(settings.sms)
        #expect(sms.format == .json)
        #expect(sms.headers.map(\.name) == ["Authorization", "X-Tenant"])
        #expect(sms.headers.map(\.value) == ["Bearer abc", "safewalk"])
    }

    @Test func undialableEmergencyNumberIsRefused() {
        #expect(throws: ConfigurationError.self) { try Fixtures.settings(["SAFEWALK_EMERGENCY_NUMBER": "police"]) }
    }

    @Test func shortEmergencyNumbersWork() throws {
        #expect(try Fixtures.settings(["SAFEWALK_EMERGENCY_NUMBER": "911"]).emergency.number == "911")
    }
}
