import Crypto
import Foundation
import SafeWalkWebKit
import Testing

/// A subscription comes from a signed-in browser, so it is hostile input: web posts to whatever
/// endpoint it names, with keys it supplies.
@Suite struct PushSubscriptionTests {
    static let p256dh = PushBase64URL.encode(P256.KeyAgreement.PrivateKey().publicKey.x963Representation)
    static let auth = PushBase64URL.encode(Data(repeating: 9, count: 16))

    func check(_ endpoint: String, settings: PushSettings = PushSettings()) -> PushSubscription.Problem? {
        do {
            _ = try PushSubscription(endpoint: endpoint, p256dh: Self.p256dh, auth: Self.auth, settings: settings)
            return nil
        } catch { return error }
    }

    @Test(arguments: [
        "https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABn",
        "https://web.push.apple.com/QGuQyavXutnMH",
        "https://wns2-by3p.notify.windows.com/w/?token=BQYAAAD",
    ])
    func theBrowsersPushServicesAreAccepted(endpoint: String) {
        #expect(check(endpoint) == nil)
    }

    @Test(arguments: [
        ("", "empty"), ("http://fcm.googleapis.com/fcm/send/x", "notHTTPS"),
        ("https://evil.example.org/push", "notAllowed"), ("https://fcm.googleapis.com.evil.org/x", "notAllowed"),
        ("https://10.0.0.7/push", "notAllowed"), ("https://[::1]/push", "notAllowed"),
        ("https://localhost/push", "notAllowed"), ("https://user:pw@fcm.googleapis.com/x", "invalid"),
        ("https://fcm.googleapis.com/x#frag", "invalid"), ("https://fcm.googleapis.com/a b", "invalidCharacters"),
        ("https://fcm.googleapis.com/\u{0}", "invalidCharacters"), ("javascript:alert(1)", "invalid"),
        ("file:///etc/passwd", "invalid"), ("/relative/path", "invalid"),
        ("https://fcm.googleapis.com/" + String(repeating: "a", count: 1_100), "tooLong"),
        ("http://127.0.0.1:9/push/x", "notHTTPS"),
    ])
    func hostileEndpointsAreRefused(endpoint: String, reason: String) {
        #expect(check(endpoint) == .endpoint(reason), "\(endpoint)")
    }

    @Test func loopbackHTTPOnlyWhenASettingAllowsIt() {
        var settings = PushSettings()
        settings.allowLoopbackHTTP = true
        #expect(check("http://127.0.0.1:9/push/x", settings: settings) == nil)
        #expect(check("http://localhost:9/push/x", settings: settings) == nil)
        #expect(check("http://10.1.2.3:9/push/x", settings: settings) == .endpoint("notHTTPS"))
        #expect(check("http://example.org/push/x", settings: settings) == .endpoint("notHTTPS"))
    }

    @Test func anyNamedHTTPSHostWhenTheListIsAStar() throws {
        var settings = PushSettings()
        settings.services = nil
        #expect(check("https://push.example.org/x", settings: settings) == nil)
        #expect(check("https://192.168.1.1/x", settings: settings) == .endpoint("notAllowed"))
    }

    @Test func keysMustBeAPointOnTheCurveAndSixteenBytes() {
        let endpoint = "https://fcm.googleapis.com/fcm/send/x"
        func problem(_ p256dh: String, _ auth: String) -> PushSubscription.Problem? {
            do {
                _ = try PushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth, settings: PushSettings())
                return nil
            } catch { return error }
        }
        var offCurve = Data(repeating: 1, count: 65)
        offCurve[0] = 4
        #expect(problem(PushBase64URL.encode(offCurve), Self.auth) == .p256dh("invalid"))
        #expect(problem("not base64!", Self.auth) == .p256dh("invalid"))
        #expect(problem(String(Self.p256dh.dropLast(4)), Self.auth) == .p256dh("invalid"))
        #expect(problem(Self.p256dh, PushBase64URL.encode(Data(repeating: 1, count: 15))) == .auth("invalid"))
        #expect(problem(Self.p256dh, "") == .auth("invalid"))
        // Padded base64url, as some libraries write it, is read too.
        #expect(problem(Self.p256dh + "=", Self.auth + "==") == nil)
    }

    @Test func theSubjectSettingMustBeAMailtoOrHTTPSURL() throws {
        #expect(throws: (any Error).self) {
            try PushSettings(environment: .init(["SAFEWALK_PUSH_SUBJECT": "ops@example.org"]))
        }
        let settings = try PushSettings(
            environment: .init([
                "SAFEWALK_PUSH_SUBJECT": "https://safewalk.example.org/contact",
                "SAFEWALK_PUSH_SERVICES": "*",
            ]))
        #expect(settings.subject == "https://safewalk.example.org/contact" && settings.services == nil)
    }
}
