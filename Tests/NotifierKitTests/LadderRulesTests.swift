import Foundation
import NotifierKit
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import Testing

/// The ladder's pure pieces: the per-contact text, the callback, the fallback rule, settings and
/// the validation of what the ladder reads.
@Suite struct LadderRulesTests {
    func plan(code: String? = "4821") -> DeliveryPlan {
        var plan = PlanBuilder.plan(
            for: Fixtures.escalation(), contacts: [Fixtures.ana, Fixtures.ben], emergency: EmergencyNumber(),
            now: Fixtures.now, timeZone: TimeZone(identifier: "UTC")!)
        plan.recipients[0].page = "tokenOfAna0123456789ab"
        plan.recipients[1].page = "tokenOfBen0123456789ab"
        plan.code = code
        return plan
    }

    @Test func eachTextCarriesItsOwnLinkAndTheIncidentsCode() {
        let body = SMSText.body(plan: plan(), phone: "+15125550101", publicURL: "https://safewalk.example")
        #expect(body.hasPrefix(plan().message + "\n"))
        #expect(
            body.hasSuffix("\nLive: https://safewalk.example/i/tokenOfAna0123456789ab\nReply OK 4821 if you're on it."))
        #expect(!body.contains("tokenOfBen"))
    }

    @Test func withoutAPublicURLOrACodeTheTextIsTheMessage() {
        #expect(SMSText.body(plan: plan(code: nil), phone: "+15125550101", publicURL: nil) == plan().message)
    }

    @Test func theCallbackPlaceholderNamesTheTextForTwiliosStatusCallback() throws {
        let config = SMSGatewayConfiguration(
            url: "http://gw", template: "To={phone}&Body={message}&StatusCallback={callback}")
        let callback = SMSText.callback(publicURL: "https://safewalk.example", ref: "0a1b2c3d4e5f6a7b")
        #expect(callback == "https://safewalk.example/v1/gateway/sms/status?ref=0a1b2c3d4e5f6a7b")
        let body = String(
            decoding: try #require(config.request(phone: "+1", message: "m", callback: callback).body), as: UTF8.self)
        #expect(
            body.hasSuffix(
                "&StatusCallback=https%3A%2F%2Fsafewalk.example%2Fv1%2Fgateway%2Fsms%2Fstatus%3Fref%3D0a1b2c3d4e5f6a7b")
        )
        #expect(SMSText.callback(publicURL: nil, ref: "0a") == "")
    }

    @Test func theWebhookBodyCarriesOnlyItsOwnPage() throws {
        var plan = plan()
        plan.dispatchPage = "tokenOfDispatch0123456"
        let body = String(
            decoding: try WebhookChannel.body(plan: plan, event: Fixtures.escalation(), publicURL: "https://s.example"),
            as: UTF8.self)
        #expect(
            body.contains("\"page\":\"https:\\/\\/s.example\\/i\\/tokenOfDispatch0123456\"")
                || body.contains("\"page\":\"https://s.example/i/tokenOfDispatch0123456\""))
        #expect(!body.contains("tokenOfAna") && !body.contains("tokenOfBen"))
    }

    @Test func aFailedTextIsRetriedOnceThenDispatchThenNothing() {
        #expect(LadderFallback.next(afterFailures: 0, dispatchConfigured: true) == .retryText)
        #expect(LadderFallback.next(afterFailures: 1, dispatchConfigured: true) == .tellDispatch)
        #expect(LadderFallback.next(afterFailures: 1, dispatchConfigured: false) == LadderFallback.none)
        #expect(LadderFallback.next(afterFailures: 2, dispatchConfigured: true) == LadderFallback.none)
    }

    @Test func ladderSettingsHaveTheDocumentedDefaultsAndRefuseBadValues() throws {
        let settings = try Fixtures.settings()
        #expect(settings.ladder == LadderSettings())
        #expect(settings.webhookTier == .dispatch)
        #expect(settings.publicURL == nil)
        let custom = try Fixtures.settings([
            "SAFEWALK_LADDER_TIER2_RED": "30", "SAFEWALK_WEBHOOK_TIER": "1",
            "SAFEWALK_PUBLIC_URL": "https://safewalk.example/",
        ])
        #expect(custom.ladder.tierTwoWait[.red] == .seconds(30))
        #expect(custom.webhookTier == .first)
        #expect(custom.publicURL == "https://safewalk.example")
        for (name, value) in [
            ("SAFEWALK_LADDER_REMINDER", "0"), ("SAFEWALK_LADDER_RESUME", "soon"), ("SAFEWALK_WEBHOOK_TIER", "4"),
            ("SAFEWALK_PUBLIC_URL", "safewalk.example"), ("SAFEWALK_LADDER_TIER3_AMBER", "-1"),
        ] {
            #expect(throws: ConfigurationError.self, "\(name)=\(value)") { try Fixtures.settings([name: value]) }
        }
    }

    @Test func acknowledgementsAreValidatedAndAnUnreadableOneKeepsItsIDForTheAnswer() {
        func classify(_ text: String) -> Result<AcknowledgementRequest, LadderIntake.Refusal> {
            LadderIntake.acknowledgement(MQTTMessage(topic: "safewalk/_acks/request", payload: Data(text.utf8)))
        }
        let digest = String(repeating: "a", count: 64)
        #expect((try? classify(#"{"v":1,"id":"a1","via":"page","page":"\#(digest)","at":1}"#).get()) != nil)
        guard case .failure(let broken) = classify(#"{"v":1,"id":"a2","via":"carrier-pigeon","at":1}"#) else {
            Issue.record("accepted")
            return
        }
        #expect(broken.id == "a2")
        guard case .failure(let badPage) = classify(#"{"v":1,"id":"a3","via":"page","page":"abc","at":1}"#) else {
            Issue.record("accepted")
            return
        }
        #expect(badPage.code == "invalid_acknowledgement" && badPage.id == "a3")
        guard
            case .failure(let badCode) = classify(
                #"{"v":1,"id":"a4","via":"sms","phone":"+1512","code":"48x1","at":1}"#)
        else {
            Issue.record("accepted")
            return
        }
        #expect(badCode.id == "a4")
        guard case .failure(let noID) = classify(String(repeating: "x", count: 5000)) else {
            Issue.record("accepted")
            return
        }
        #expect(noID.id == nil)
    }

    @Test func gatewayReceiptsNeedAHexRefAndAWordForStatus() {
        func classify(_ text: String) -> Bool {
            (try? LadderIntake.receipt(MQTTMessage(topic: "safewalk/_receipts/gateway", payload: Data(text.utf8))).get())
                != nil
        }
        #expect(classify(#"{"v":1,"ref":"0a1b","status":"delivered","at":1}"#))
        #expect(!classify(#"{"v":1,"ref":"../x","status":"delivered","at":1}"#))
        #expect(!classify(#"{"v":1,"ref":"0a1b","status":"DELIVERED; drop","at":1}"#))
    }
}
