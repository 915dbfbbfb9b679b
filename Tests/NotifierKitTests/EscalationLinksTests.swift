import Foundation
import NotifierKit
import SafeWalkCore
import Testing

@Suite struct EscalationLinksTests {
    @Test func telLinksUseTheNormalisedNumber() {
        #expect(EscalationLinks.tel("(512) 471-4441") == "tel:+15124714441")
        #expect(EscalationLinks.tel("911", minimumDigits: 3) == "tel:911")
        #expect(EscalationLinks.tel("call me") == nil)
    }

    @Test func groupTextGoesToEveryDialableContact() {
        let sms = EscalationLinks.groupSMS(to: ["512-471-4441", "+1 737 555 0100"], body: "Help")
        #expect(sms.url == "sms:+15124714441,+17375550100?&body=Help")
        #expect(sms.recipients == ["+15124714441", "+17375550100"])
        #expect(sms.skipped.isEmpty)
    }

    @Test func oneBadNumberNeverRemovesTheOthers() {
        let sms = EscalationLinks.groupSMS(to: ["not a number", "512-471-4441", "", "+44 20 7946 0958"], body: "x")
        #expect(sms.url == "sms:+15124714441,+442079460958?&body=x")
        #expect(sms.skipped.map(\.reason) == [.containsLetters, .empty])
        #expect(sms.skipped.map(\.input) == ["not a number", ""])
    }

    @Test func allBadNumbersGiveNoLinkAndEveryReason() {
        let sms = EscalationLinks.groupSMS(to: ["abc", "12", "+", "5+5"], body: "x")
        #expect(sms.url == nil)
        #expect(sms.recipients.isEmpty)
        #expect(sms.skipped.map(\.reason) == [.containsLetters, .tooShort, .noDigits, .misplacedPlus])
    }

    @Test func anEmptyContactListGivesNoLink() {
        let sms = EscalationLinks.groupSMS(to: [], body: "x")
        #expect(sms.url == nil && sms.recipients.isEmpty && sms.skipped.isEmpty)
    }

    @Test func theSameNumberWrittenTwiceIsTextedOnce() {
        let sms = EscalationLinks.groupSMS(to: ["5124714441", "+1 (512) 471-4441"], body: "x")
        #expect(sms.recipients == ["+15124714441"])
    }

    @Test func theBodyKeepsOnlyUnreservedCharactersLiteral() {
        #expect(
            PercentEncoding.encode("Help me: I'm at 5th & Main? 100%")
                == "Help%20me%3A%20I%27m%20at%205th%20%26%20Main%3F%20100%25")
        #expect(PercentEncoding.encode("a-b.c_d~e") == "a-b.c_d~e")
        #expect(PercentEncoding.encode("a+b=c/d\n") == "a%2Bb%3Dc%2Fd%0A")
    }

    @Test func emojiBecomeTheirUTF8Bytes() {
        #expect(PercentEncoding.encode("👍") == "%F0%9F%91%8D")
        #expect(PercentEncoding.encode("I need help 🚨") == "I%20need%20help%20%F0%9F%9A%A8")
        #expect(PercentEncoding.encode("é") == "%C3%A9")
    }

    @Test func encodedBodiesDecodeBackExactly() {
        let text = "Ana 🌙 needs help: 👍🏽 café, \"quotes\" & #tags ✓"
        let encoded = PercentEncoding.encode(text)
        #expect(encoded.removingPercentEncoding == text)
        #expect(encoded.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._~%".contains($0)) })
        let sms = EscalationLinks.groupSMS(to: ["5124714441"], body: text)
        #expect(sms.url?.hasSuffix("?&body=" + encoded) == true)
    }

    @Test func mapsLinksUseSixDecimalPlaces() {
        #expect(
            EscalationLinks.maps(Coordinate(lat: 30.2849, lon: -97.7341))
                == "https://maps.google.com/?q=30.284900,-97.734100")
        #expect(
            EscalationLinks.maps(Coordinate(lat: -33.8688197, lon: 151.2092957))
                == "https://maps.google.com/?q=-33.868820,151.209296")
        #expect(
            EscalationLinks.maps(Coordinate(lat: -0.0000001, lon: 0)) == "https://maps.google.com/?q=0.000000,0.000000")
    }

    @Test func impossiblePositionsGetNoMapsLink() {
        #expect(EscalationLinks.maps(Coordinate(lat: .nan, lon: 0)) == nil)
        #expect(EscalationLinks.maps(Coordinate(lat: 91, lon: 0)) == nil)
        #expect(EscalationLinks.maps(Coordinate(lat: 0, lon: .infinity)) == nil)
    }
}
