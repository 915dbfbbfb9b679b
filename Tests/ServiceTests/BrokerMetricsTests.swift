import Testing

@testable import SafeWalkService

@Suite("Topic kinds for traffic metrics")
struct BrokerMetricsTests {
    @Test(arguments: [
        ("safewalk/alice/fix", "fix"), ("safewalk/alice/contacts/add", "contactsAdd"),
        ("safewalk/alice/contacts", "contacts"), ("safewalk/_service/watchdog", "serviceStatus"),
        ("safewalk/_rejected/notifier", "rejected"), ("owntracks/alice/phone", "owntracks"),
        ("safewalk/alice/unknown", "other"), ("safewalkers/alice/fix", "other"), ("elsewhere", "other"),
        ("safewalk/alice", "other"), ("safewalk/_accounts/command", "accountCommand"),
        ("safewalk/_accounts/erased/watchdog", "accountErased"),
        // Read on UTF-8 bytes: a multi-byte level is skipped over, not miscounted.
        ("safewalk/josé/fix", "fix"), ("safewalk/🚶‍♀️/contacts/add", "contactsAdd"), ("safewalk/", "other"),
        ("owntracks", "other"),
        // About one walker, for services only: counted by kind, not as `other`.
        ("safewalk/_incidents/alice", "incident"), ("safewalk/_escalations/received/alice", "escalationReceived"),
        ("safewalk/_ladder/alice", "ladder"), ("safewalk/_x/fix", "fix"),
    ])
    func kindIsReadFromTheTopicShape(topic: String, kind: String) {
        #expect(BrokerMetrics.kind(of: topic, prefix: "safewalk") == kind)
    }
}
