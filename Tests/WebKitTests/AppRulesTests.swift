import Crypto
import Foundation
import SafeWalkCore
import SafeWalkWebKit
import Testing

/// The app API's pure rules (issue 20): what a publish may say, how events are written, the
/// presence grace, sliding sessions and the session login's name and password.
@Suite("The walker's app: pure rules")
struct AppRulesTests {
    let alice = try! WalkerID("alice")

    func read(_ json: String) throws(APIError) -> AppInput { try AppInput.read(Data(json.utf8)) }

    @Test func anInputIsItsKindAndItsPayloadReserialized() throws {
        let action = try read(#"{"kind":"action","payload":{"v":1, "id":"a1","type":"needHelp","note":"a/b"}}"#)
        #expect(action.kind == .action)
        let decoded = try JSONSerialization.jsonObject(with: action.payload) as? [String: Any]
        #expect(decoded?["type"] as? String == "needHelp")
        #expect(String(decoding: action.payload, as: UTF8.self).contains("a/b"))
        #expect(try read(#"{"kind":"contacts/add","payload":{}}"#).kind == .contactsAdd)
        #expect(try read(#"{"kind":"circle/cmd","payload":[1,2]}"#).payload == Data("[1,2]".utf8))
        let presence = try read(#"{"kind":"presence","payload":"background"}"#)
        #expect(presence.payload == Data("background".utf8) && presence.retained)
        #expect(!action.retained)
        // A malformed cry for help still goes: the watchdog judges it, not web.
        #expect(try read(#"{"kind":"action","payload":"help"}"#).payload == Data(#""help""#.utf8))
    }

    @Test func whatIsNotAnInputIsRefusedWithItsField() {
        let cases: [(String, APIError)] = [
            ("not json", .malformedJSON),
            ("[1]", .malformedJSON),
            (#"{"payload":{}}"#, .field(FieldError(.kind, .missing))),
            (#"{"kind":7,"payload":{}}"#, .field(FieldError(.kind, .wrongType))),
            (#"{"kind":"status","payload":{}}"#, .field(FieldError(.kind, .invalid))),
            (#"{"kind":"action/result","payload":{}}"#, .field(FieldError(.kind, .invalid))),
            (#"{"kind":"../bob/action","payload":{}}"#, .field(FieldError(.kind, .invalid))),
            (#"{"kind":"action"}"#, .field(FieldError(.payload, .missing))),
            (#"{"kind":"action","payload":null}"#, .field(FieldError(.payload, .missing))),
            (#"{"kind":"presence","payload":{"x":1}}"#, .field(FieldError(.payload, .wrongType))),
            (#"{"kind":"presence","payload":"asleep"}"#, .field(FieldError(.payload, .invalid))),
        ]
        for (body, expected) in cases {
            #expect(throws: expected, "\(body)") { try read(body) }
        }
        #expect(throws: APIError.invalidUTF8) { try AppInput.read(Data([0x7B, 0xFF, 0x7D])) }
    }

    @Test func eventsAreNamedAfterTheTopicUnderTheWalkersOwnId() {
        #expect(AppTopics.eventName(of: "safewalk/alice/status", walker: alice) == "status")
        #expect(AppTopics.eventName(of: "safewalk/alice/action/result", walker: alice) == "action/result")
        #expect(AppTopics.eventName(of: "safewalk/alice/shared/bob", walker: alice) == "shared/bob")
        #expect(AppTopics.eventName(of: "safewalk/alice/presence", walker: alice) == "presence")
        #expect(AppTopics.eventName(of: "safewalk/alice/action", walker: alice) == nil, "an input, not an event")
        #expect(AppTopics.eventName(of: "safewalk/bob/status", walker: alice) == nil)
        #expect(AppTopics.eventName(of: "safewalk/alicex/status", walker: alice) == nil)
        #expect(AppTopics.eventName(of: "safewalk/alice/shared/bob/x", walker: alice) == nil)
        // On a cluster with several watchdogs a position or presence ends in its partition.
        #expect(AppTopics.eventName(of: "safewalk/alice/position/1", walker: alice) == "position")
        #expect(AppTopics.eventName(of: "safewalk/alice/presence/0", walker: alice) == "presence")
        #expect(AppTopics.eventName(of: "safewalk/alice/action/1", walker: alice) == nil, "an input, not an event")
        #expect(AppTopics.eventName(of: "safewalk/bob/position/1", walker: alice) == nil)
        #expect(AppTopics.readFilters(of: alice).contains("safewalk/alice/position/#"))
        #expect(AppTopics.readFilters(of: alice).contains("safewalk/alice/status"))
    }

    @Test func anEventIsWrittenAsServerSentEvents() {
        #expect(
            AppEvent.message(name: "action/result", payload: Data(#"{"ok":true}"#.utf8)).text
                == "event: action/result\ndata: {\"ok\":true}\n\n")
        #expect(AppEvent.message(name: "status", payload: Data()).text == "event: status\ndata: \n\n")
        #expect(AppEvent.message(name: "chat", payload: Data("a\nb".utf8)).text == "event: chat\ndata: a\ndata: b\n\n")
        #expect(AppEvent.bridge(connected: true).text == "event: bridge\ndata: {\"state\":\"connected\"}\n\n")
        #expect(AppEvent.bridge(connected: false).text == "event: bridge\ndata: {\"state\":\"reconnecting\"}\n\n")
        #expect(AppEvent.keepAlive.text == ": keep-alive\n\n")
    }

    @Test func theLastStreamsEndStartsAGraceThatAStreamComingBackVoids() {
        var grace = PresenceGrace()
        grace.opened()
        grace.opened()
        #expect(grace.closed() == nil, "another tab is still open")
        let first = grace.closed()!
        grace.opened()  // the page reloaded within the grace
        #expect(grace.expire(first) == nil)
        let second = grace.closed()!
        #expect(grace.expire(first) == nil, "a stale grace never fires")
        #expect(grace.expire(second) == .offlineThenClose)
    }

    @Test func aConnectionUsedOnlyToPublishClosesWithoutAWord() {
        var grace = PresenceGrace()
        let token = grace.idle()!
        #expect(grace.expire(token) == .close)
        grace.opened()
        #expect(grace.idle() == nil, "a publish while a stream is open starts nothing")
    }

    @Test func sessionsSlideAtMostOnceAMinute() {
        let now = Date(timeIntervalSince1970: 1_760_000_000)
        let lifetime: TimeInterval = 43_200
        #expect(
            SessionSlide.next(expiresAt: now.addingTimeInterval(lifetime - 30), now: now, lifetime: lifetime) == nil)
        #expect(
            SessionSlide.next(expiresAt: now.addingTimeInterval(100), now: now, lifetime: lifetime)
                == now.addingTimeInterval(lifetime))
    }

    @Test func theSessionLoginFollowsFromTheCookieAlone() {
        let token = "Aa0_-Aa0_-Aa0_-Aa0_-Aa0_-Aa0_-Aa0_-Aa0_-Aa0"
        let tokenHash = Secrets.digest(token)
        let login = SessionLogin(user: alice, tokenHash: tokenHash)
        #expect(login.session.count == 16 && AccountCommand.isSessionID(login.session))
        #expect(login.session == String(Secrets.digest(tokenHash).prefix(16)))
        #expect(login.username == "alice.app-\(login.session)")
        let password = SessionLogin.password(token: token)
        #expect(password.count == 43)
        #expect(password == SessionLogin.password(token: token))
        #expect(password != SessionLogin.password(token: String(token.dropLast()) + "1"))
        // HKDF-SHA256 as RFC 5869 defines it, computed independently: PRK = HMAC(salt = 32 zero
        // bytes, IKM), OKM = HMAC(PRK, info || 0x01).
        let prk = HMAC<SHA256>.authenticationCode(
            for: Data(token.utf8), using: SymmetricKey(data: Data(repeating: 0, count: 32)))
        let okm = HMAC<SHA256>.authenticationCode(
            for: Data("safewalk broker session login".utf8) + [1], using: SymmetricKey(data: Data(prk)))
        let expected = Data(okm).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        #expect(password == expected)
        #expect(!password.contains(tokenHash.prefix(8)))
    }
}
