import NotifierKit
import SafeWalkCore
import SafeWalkService
import Testing

/// What the monitoring desk's acknowledgement and close say, to contacts, on the timeline and on
/// the walker's phone; and what a walker's own acknowledgement and close keep saying.
@Suite("The words of the desk's acknowledgement and close")
struct LadderDeskWordsTests {
    @Test func aRecipientsAcknowledgementReadsAsBefore() {
        let words = AcknowledgementWords.of(name: "Ana", walker: "alex")
        #expect(words.entry == "Ana is on it")
        #expect(words.handling == "Ana is handling it (alex).")
        #expect(
            words.alert == DeviceAlert(title: "Ana is on it", body: "Ana is on it: they got your alert.", actions: []))
    }

    @Test func theDesksAcknowledgementNamesTheOperatorOnlyOnTheTimeline() {
        let words = AcknowledgementWords.of(name: "the campus desk", operator: "olga", walker: "alex")
        #expect(words.entry == "the campus desk is on it (olga)")
        #expect(words.handling == "The campus desk is handling it (alex).")
        #expect(words.alert.title == "The campus desk is on it")
        #expect(words.alert.body == "The campus desk is on it: they got your alert.")
        #expect(!words.handling.contains("olga") && !words.alert.body.contains("olga"))
    }

    @Test func theWalkersOwnCloseIsTheUsualAllClearAndNothingForTheDevice() {
        for closer in [IncidentState.Closer.imSafe, .stop, .arrived, nil] {
            let words = AllClearWords.of(
                walker: "alex", at: "14:03", closedBy: closer, reason: nil, desk: DeskName.default)
            #expect(words.text == "alex is safe (at 14:03). Thank you.")
            #expect(words.entry == "alex is safe (at 14:03)")
            #expect(words.alert == nil, "the walker closed it: their own action told them")
        }
    }

    @Test(arguments: DeskCloseReason.allCases)
    func theDesksCloseSaysWhoClosedItAndWhy(reason: DeskCloseReason) {
        let words = AllClearWords.of(
            walker: "alice", at: "14:03", closedBy: .desk, reason: reason, desk: "the campus desk")
        #expect(words.text == "The campus desk closed alice's alert (\(reason.words)) at 14:03.")
        #expect(words.alert?.title == "The campus desk closed your alert")
        #expect(words.alert?.body == "Reason: \(reason.words).")
    }

    @Test func aDeskCloseWithoutAReasonStillSaysTheDeskClosedIt() {
        let words = AllClearWords.of(walker: "alice", at: "14:03", closedBy: .desk, reason: nil, desk: "UT Police desk")
        #expect(words.text == "UT Police desk closed alice's alert at 14:03.")
        #expect(words.alert?.body == "Your alert is closed.")
    }

    @Test func theDesksNameIsASettingWithTheSharedDefault() throws {
        #expect(try Fixtures.settings().deskName == "the campus desk")
        #expect(try Fixtures.settings([DeskName.environmentKey: "the night desk"]).deskName == "the night desk")
        let tooLong = String(repeating: "d", count: 61)
        #expect(try Fixtures.settings([DeskName.environmentKey: tooLong]).deskName == DeskName.default)
    }
}
