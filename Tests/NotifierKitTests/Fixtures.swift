import Foundation
import NotifierKit
import SafeWalkCore

/// Shared test data: a walker, contacts, escalations.
enum Fixtures {
    static let walker = try! WalkerID("alex")
    static let prefix = "safewalk"
    static let now: EpochSeconds = 1_800_000_000
    static let fix = FixSummary(lat: 30.285, lon: -97.735, acc: 10, tst: now - 120)

    static let ana = Contact(id: "c1", name: "Ana", rawPhone: "(512) 555-0101")
    static let ben = Contact(id: "c2", name: "Ben", rawPhone: "+44 20 7946 0958")
    static let typo = Contact(id: "c3", name: "Cal", rawPhone: "512-CALL-CAL")
    static let threeWithOneUndialable = [ana, ben, typo]

    static func escalation(
        _ id: String = "esc-1", reason: EscalationReason = .needHelp, level: EscalationLevel = .red,
        lastFix: FixSummary? = fix, walker: WalkerID = walker
    ) -> EscalationEvent {
        EscalationEvent(id: id, walker: walker, reason: reason, level: level, at: now - 5, lastFix: lastFix, walk: nil)
    }

    static func settings(_ values: [String: String] = [:]) throws -> NotifierSettings {
        try NotifierSettings(.init(["TZ": "UTC", "SAFEWALK_TIME_ZONE": "UTC"].merging(values) { $1 }))
    }
}
