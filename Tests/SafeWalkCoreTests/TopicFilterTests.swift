import SafeWalkCore
import Testing

@Suite struct TopicFilterTests {
    @Test func everyKindFilterPutsAPlusWhereTheWalkerOrServiceGoes() {
        #expect(TopicFilter.every(.status).rawValue == "safewalk/+/status")
        #expect(TopicFilter.every(.escalation, prefix: "t1").rawValue == "t1/+/escalation")
        // A partitioned kind also matches its routed form (`Topic.Kind.isPartitioned`).
        #expect(TopicFilter.every(.fix).rawValue == "safewalk/+/fix/#")
        #expect(TopicFilter.every(.contactsAdd).rawValue == "safewalk/+/contacts/add")
    }

    @Test func serviceFiltersCoverEveryService() {
        #expect(TopicFilter.every(.owntracks, prefix: "p").rawValue == "owntracks/+/+/#")
        #expect(TopicFilter.partitionInput(.owntracks, partition: nil).rawValue == "owntracks/+/+")
        #expect(TopicFilter.every(.serviceStatus).rawValue == "safewalk/_service/+/#")
        #expect(TopicFilter.every(.rejected, prefix: "p").rawValue == "p/_rejected/+")
        #expect(TopicFilter.walker(walker("bob")).rawValue == "safewalk/bob/#")
        #expect(TopicFilter.every(.accountErased).rawValue == "safewalk/_accounts/erased/+")
        #expect(TopicFilter.every(.accountCommand, prefix: "p").rawValue == "p/_accounts/command")
        #expect(TopicFilter.everything().rawValue == "safewalk/#")
    }

    @Test func everyKindFilterMatchesThatKindForAnyWalkerOnly() {
        let filter = TopicFilter.every(.status)
        #expect(filter.matches(Topic.status(walker("alice")).name()))
        #expect(filter.matches(Topic.status(walker("bob")).name()))
        #expect(!filter.matches(Topic.position(walker("alice")).name()))
        #expect(!filter.matches("safewalk/alice/status/extra"))
        #expect(!filter.matches("other/alice/status"))
    }

    @Test func ownTracksFilterMatchesEveryDeviceButNotOurTopics() {
        let filter = TopicFilter.partitionInput(.owntracks, partition: nil)
        #expect(filter.matches("owntracks/alice/phone"))
        #expect(!filter.matches("owntracks/alice"))
        #expect(!filter.matches("safewalk/alice/fix"))
    }

    @Test func oneWalkersOwnTracksFilters() {
        #expect(TopicFilter.owntracks(of: walker("bob")).rawValue == "owntracks/bob/+")
        #expect(TopicFilter.owntracksCommands(of: walker("bob")).rawValue == "owntracks/bob/+/cmd")
        #expect(TopicFilter.owntracks(of: walker("bob")).matches("owntracks/bob/phone"))
        #expect(!TopicFilter.owntracks(of: walker("bob")).matches("owntracks/bobby/phone"))
        // An erasure's sweep: the device's topic, and its routed form on a partitioned cluster.
        let devices = TopicFilter.owntracksDevices(of: walker("bob"))
        #expect(devices.matches("owntracks/bob/phone") && devices.matches("owntracks/bob/phone/1"))
        #expect(!devices.matches("owntracks/bobby/phone/1") && !devices.matches("owntracks/bob"))
    }

    @Test func hashMatchesTheParentAndEverythingBelow() {
        let filter = TopicFilter.walker(walker("bob"))
        #expect(filter.matches("safewalk/bob"))
        #expect(filter.matches("safewalk/bob/contacts/result"))
        #expect(!filter.matches("safewalk/bobby/fix"))
    }

    @Test func wildcardsNeverMatchDollarTopics() {
        #expect(!TopicFilter("#")!.matches("$SYS/broker/uptime"))
        #expect(!TopicFilter("+/broker/uptime")!.matches("$SYS/broker/uptime"))
        #expect(TopicFilter("$SYS/#")!.matches("$SYS/broker/uptime"))
    }

    @Test(arguments: ["a/b#", "a/#/b", "a+/b", "", "##"])
    func malformedFiltersAreRefused(raw: String) {
        #expect(TopicFilter(raw) == nil)
    }

    @Test func filtersWithNULAreRefused() {
        #expect(TopicFilter("a/\u{0}") == nil)
    }

    @Test(arguments: ["#", "+", "a/+/c", "a/#", "+/+/+"])
    func wellFormedFiltersAreAccepted(raw: String) {
        #expect(TopicFilter(raw)?.rawValue == raw)
    }

    @Test func aFilterBuiltFromATopicMatchesOnlyThatTopic() {
        let filter = TopicFilter(Topic.status(walker("alice")))
        #expect(filter.matches("safewalk/alice/status"))
        #expect(!filter.matches("safewalk/bob/status"))
    }
}
