import Testing

@testable import e2e_load_bench

/// Alerts are counted as the device shows them: one per escalation id.
@Suite struct AlertCountTests {
    @Test func aRepeatedIdCountsOnceAndEveryAlertWithoutAnIdCounts() {
        #expect(Evaluation.distinctAlerts(["e1", "e1", nil, "e2", nil]) == 4)
        #expect(Evaluation.distinctAlerts([]) == 0)
        #expect(Evaluation.distinctAlerts(["e1", "e2"]) == 2)
    }

    @Test func anAlertNamesAnEscalationTheObserverMissedAndAddsNothingForOneItSaw() {
        #expect(Evaluation.escalationIDs(seen: [], alerts: ["e1"]) == ["e1"])
        #expect(Evaluation.escalationIDs(seen: ["e1"], alerts: ["e1", "e1", nil]) == ["e1"])
        #expect(Evaluation.escalationIDs(seen: ["e1"], alerts: []) == ["e1"])
        #expect(Evaluation.escalationIDs(seen: ["e1"], alerts: ["e2"]) == ["e1", "e2"])
    }
}

/// The notifier's own word for a text sent again after a crash, read from its log.
@Suite struct ResentAfterCrashTests {
    @Test func onlyTheChannelAskedForIsRead() {
        let log = """
            2026-11-27T18:53:22+0000 notice safewalk.notifier: channel=device escalation=e1 recipient=w171 service=notifier [NotifierKit] resending after an interrupted attempt
            2026-11-27T18:53:22+0000 notice safewalk.notifier: channel=sms-http escalation=e2 recipient=+*******0438 service=notifier [NotifierKit] resending after an interrupted attempt
            2026-11-27T18:53:23+0000 info safewalk.notifier: channel=sms-http escalation=e3 service=notifier [NotifierKit] escalation delivered
            """
        #expect(LoadRun.resentAfterCrash(log, channel: "sms-http") == ["e2"])
        #expect(LoadRun.resentAfterCrash(log, channel: "device") == ["e1"])
    }
}
