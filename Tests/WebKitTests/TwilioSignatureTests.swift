import SafeWalkWebKit
import Testing

/// Against the vectors Twilio publishes for its request validators, so an implementation that is
/// merely consistent with itself cannot pass.
@Suite struct TwilioSignatureTests {
    static let url = "https://mycompany.com/myapp.php?foo=1&bar=2"
    static let parameters: [(name: String, value: String)] = [
        ("CallSid", "CA1234567890ABCDE"), ("Caller", "+14158675309"), ("Digits", "1234"),
        ("From", "+14158675309"), ("To", "+18005551212"),
    ]

    @Test func twilioPublishedVectorIsReproducedWhateverTheParameterOrder() {
        #expect(
            TwilioSignature.expected(authToken: "12345", url: Self.url, parameters: Self.parameters)
                == "RSOYDt4T1cUTdK1PDd93/VVr8B8=")
        let shuffled = Array(Self.parameters.reversed())
        #expect(
            TwilioSignature.isValid(
                "RSOYDt4T1cUTdK1PDd93/VVr8B8=", authToken: "12345", url: Self.url, parameters: shuffled))
    }

    @Test func repeatedNamesCountEachDistinctValueOnceInOrder() {
        let repeated: [(name: String, value: String)] = [
            ("Sid", "CA123"), ("SidAccount", "AC123"), ("Digits", "5678"), ("Digits", "1234"), ("Digits", "1234"),
        ]
        #expect(
            TwilioSignature.expected(authToken: "12345", url: Self.url, parameters: repeated)
                == "IK+Dwps556ElfBT0I3Rgjkr1wJU=")
    }

    @Test func anyChangeOrAForgeryFails() {
        let good = "RSOYDt4T1cUTdK1PDd93/VVr8B8="
        #expect(!TwilioSignature.isValid(good, authToken: "54321", url: Self.url, parameters: Self.parameters))
        #expect(!TwilioSignature.isValid(good, authToken: "12345", url: Self.url + "&x=1", parameters: Self.parameters))
        var changed = Self.parameters
        changed[2].value = "9999"
        #expect(!TwilioSignature.isValid(good, authToken: "12345", url: Self.url, parameters: changed))
        for forged in ["", "FAIL", "invalid 王", "RSOYDt4T1cUTdK1PDd93/VVr8B8", String(good.dropLast(2)) + "A="] {
            #expect(!TwilioSignature.isValid(forged, authToken: "12345", url: Self.url, parameters: Self.parameters))
        }
    }
}
