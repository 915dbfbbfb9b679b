import Testing

@testable import SafeWalkCore

/// One of every topic, with the string docs/CONTRACT.md gives it under the default prefix.
let everyTopic: [(Topic, String)] = [
    (.fix(walker()), "safewalk/alice/fix"),
    (.presence(walker()), "safewalk/alice/presence"),
    (.reply(walker()), "safewalk/alice/reply"),
    (.action(walker()), "safewalk/alice/action"),
    (.position(walker()), "safewalk/alice/position"),
    (.status(walker()), "safewalk/alice/status"),
    (.prompt(walker()), "safewalk/alice/prompt"),
    (.chat(walker()), "safewalk/alice/chat"),
    (.escalation(walker()), "safewalk/alice/escalation"),
    (.contactsAdd(walker()), "safewalk/alice/contacts/add"),
    (.contactsRemove(walker()), "safewalk/alice/contacts/remove"),
    (.contacts(walker()), "safewalk/alice/contacts"),
    (.contactsResult(walker()), "safewalk/alice/contacts/result"),
    (.alert(walker()), "safewalk/alice/alert"),
    (.delivery(walker()), "safewalk/alice/delivery"),
    (.actionResult(walker()), "safewalk/alice/action/result"),
    (.inputRejected(walker()), "safewalk/alice/rejected"),
    (.rejected(.locationIngest), "safewalk/_rejected/location-ingest"),
    (.serviceStatus(.watchdog), "safewalk/_service/watchdog"),
    (.heartbeat(.watchdog), "safewalk/_heartbeat/watchdog"),
    (.owntracks(user: walker(), device: DeviceName(validating: "phone")!), "owntracks/alice/phone"),
    (.accountCommand, "safewalk/_accounts/command"),
    (.accountResult, "safewalk/_accounts/result"),
    (.accountErase(.brokerAdmin), "safewalk/_accounts/erase/broker-admin"),
    (.accountErased(.watchdog), "safewalk/_accounts/erased/watchdog"),
    (.incident(walker()), "safewalk/_incidents/alice"),
    (.arrival(walker()), "safewalk/_arrivals/alice"),
    (.ladder(walker()), "safewalk/_ladder/alice"),
    (.acknowledgementRequest, "safewalk/_acks/request"),
    (.acknowledgementResult, "safewalk/_acks/result"),
    (.gatewayReceipt, "safewalk/_receipts/gateway"),
    (.circleCommand(walker()), "safewalk/alice/circle/cmd"),
    (.circleResult(walker()), "safewalk/alice/circle/result"),
    (.circle(walker()), "safewalk/alice/circle"),
    (.inbox(walker()), "safewalk/alice/inbox"),
    (.member(walker()), "safewalk/_members/alice"),
    (.deskClose, "safewalk/_desk/close"),
    (.deskResult, "safewalk/_desk/result"),
    (.deskNotice(walker()), "safewalk/alice/desk"),
    (.escalationReceived(walker()), "safewalk/_escalations/received/alice"),
]

@Suite struct TopicTests {
    @Test func everyTopicHasItsDesignName() {
        for (topic, name) in everyTopic { #expect(topic.name() == name) }
        #expect(Set(everyTopic.map(\.0.kind)) == Set(Topic.Kind.allCases))  // the list is complete
    }

    @Test(arguments: ["safewalk", "test-run-7", "tenant/a/safewalk"])
    func everyTopicRoundTrips(prefix: String) {
        for (topic, _) in everyTopic {
            #expect(Topic.parse(topic.name(prefix: prefix), prefix: prefix) == topic)
        }
    }

    @Test func owntracksTopicsIgnoreThePrefix() {
        let topic = Topic.owntracks(user: walker("bob"), device: DeviceName(validating: "pixel-7")!)
        #expect(topic.name(prefix: "custom") == "owntracks/bob/pixel-7")
        #expect(Topic.parse("owntracks/bob/pixel-7", prefix: "custom") == topic)
    }

    @Test(arguments: [
        "safewalk/+/fix", "safewalk/#/fix", "safewalk/jose\u{301}/fix", "safewalk/a b/fix",
        "safewalk/\(String(repeating: "a", count: 65))/fix", "owntracks/a+b/phone",
        "owntracks/bob/my phone",
    ])
    func parseRefusesInvalidNames(topic: String) {
        #expect(Topic.parse(topic) == nil)
    }

    @Test(arguments: [
        "safewalk/alice/fix/extra", "safewalk/alice/unknown", "safewalk/alice", "safewalk/alice/contacts/other",
        "safewalk//fix", "safewalk/alice/fix/", "/safewalk/alice/fix", "other/alice/fix", "owntracks/alice",
        "owntracks/alice/phone/extra", "safewalk/_rejected", "safewalk/_service/watchdog/x", "", "safewalk",
    ])
    func parseRefusesTopicsOutsideTheContract(topic: String) {
        #expect(Topic.parse(topic) == nil)
    }

    /// Levels are split at the byte `/`, as the broker splits them, multi-byte characters and
    /// all; a combining mark after a `/` does not join it to the level before.
    @Test func levelsAreSplitAtEverySlashByte() {
        #expect(Topic.levels(of: "a//b/") == ["a", "", "b", ""])
        #expect(Topic.levels(of: "josé/🚶‍♀️/x") == ["josé", "🚶‍♀️", "x"])
        #expect(Topic.levels(of: "a/\u{301}b") == ["a", "\u{301}b"])
        #expect(Topic.levels(of: "") == [""])
        #expect(Topic.parse("safewalk/\u{301}alice/fix") == nil)
        #expect(Topic.parse("ünï/alice/fix", prefix: "ünï") == .fix(walker()))
    }

    /// A walker's topic is read in place (`walkerTopic`), anything else by its levels: the two
    /// must never disagree. Every topic of the contract under three prefixes, routed to a
    /// partition or not, and each cut at every byte or given a `/`, `_` or space there, is read both ways.
    @Test func theInPlaceReadingAgreesWithTheLevelsEverywhere() {
        var checked = 0
        var readInPlace = 0
        for prefix in ["safewalk", "a/b", "sw_2"] {
            var names = everyTopic.map { $0.0.name(prefix: prefix) }
            names += names.map { $0 + "/1" } + ["\(prefix)/_x/fix", "\(prefix)/alice/_x", "\(prefix)x/alice/fix"]
            var variants: [String] = []
            for name in names {
                let bytes = Array(name.utf8)
                variants.append(name)
                for cut in 0..<bytes.count {
                    variants.append(String(decoding: bytes[..<cut], as: UTF8.self))
                    variants.append(
                        String(decoding: bytes[..<cut] + [UInt8(ascii: "/")] + bytes[cut...], as: UTF8.self))
                    variants.append(
                        String(decoding: bytes[..<cut] + [UInt8(ascii: "_")] + bytes[cut...], as: UTF8.self))
                    variants.append(
                        String(decoding: bytes[..<cut] + [UInt8(ascii: " ")] + bytes[cut...], as: UTF8.self))
                }
            }
            for topic in variants {
                let inPlace = Topic.walkerTopic(topic, prefix: prefix)
                if let inPlace {
                    readInPlace += 1
                    #expect(inPlace == Topic.parseLevels(topic, prefix: prefix), "\(topic)")
                }
                #expect(Topic.parse(topic, prefix: prefix) == Topic.parseLevels(topic, prefix: prefix), "\(topic)")
                checked += 1
            }
        }
        #expect(checked > 10_000)
        #expect(readInPlace > 100)  // the in-place path is taken, not skipped
    }

    @Test func parseOnlyAcceptsTheGivenPrefix() {
        #expect(Topic.parse("safewalk/alice/fix", prefix: "other") == nil)
        #expect(Topic.parse("a/b/alice/fix", prefix: "a/b") == .fix(walker()))
        #expect(Topic.parse("a/alice/fix", prefix: "a/b") == nil)
    }

    @Test func reservedLevelsParseAsServiceTopics() {
        #expect(Topic.parse("safewalk/_service/notifier") == .serviceStatus(.notifier))
        #expect(Topic.parse("safewalk/_rejected/contacts-store") == .rejected(.contactsStore))
        // Never a walker named "_service": that would let a device speak for a service.
        #expect(Topic.parse("safewalk/_service/fix") == .serviceStatus(ServiceName(validating: "fix")!))
    }

    @Test func everyKindIsFoundByItsScopeAndPath() {
        for kind in Topic.Kind.allCases {
            #expect(Topic.Kind(kind.scope, path: kind.path) == kind)
            #expect(kind.isPerWalker == (kind.scope == .walker))
        }
        #expect(Topic.Kind(.walker, path: "_rejected") == nil)
        #expect(Topic.Kind(.service, path: "rejected") == nil)
    }

    @Test func aKindBuildsATopicOnlyForASubjectOfItsScope() throws {
        for kind in Topic.Kind.allCases {
            let forWalker = Topic(kind, walker: walker("w1"))
            let forService = Topic(kind, service: .notifier)
            #expect((forWalker != nil) == [.walker, .servicesAboutWalker].contains(kind.scope), "\(kind)")
            #expect((forService != nil) == (kind.scope == .service), "\(kind)")
            #expect((Topic(system: kind) != nil) == (kind.scope == .system), "\(kind)")
            #expect(forWalker.map { $0.kind == kind && $0.subject == .walker(walker("w1")) } ?? true)
            #expect(forService.map { $0.kind == kind && $0.subject == .service(.notifier) } ?? true)
        }
        #expect(try #require(Topic(.contactsAdd, walker: walker("w1"))) == .contactsAdd(walker("w1")))
        #expect(try #require(Topic(.serviceStatus, service: .watchdog)) == .serviceStatus(.watchdog))
    }

    @Test func walkerIsTheOwntracksUserAndAbsentForServices() {
        #expect(Topic.owntracks(user: walker("bob"), device: DeviceName(validating: "d")!).walker == walker("bob"))
        #expect(Topic.serviceStatus(.watchdog).walker == nil)
        #expect(Topic.rejected(.notifier).service == .notifier)
        #expect(Topic.escalation(walker("carol")).walker == walker("carol"))
        #expect(Topic.escalation(walker("carol")).service == nil)
    }

    @Test func walkersCannotTakeAServiceLevel() {
        for kind in Topic.Kind.allCases where kind.scope != .walker && kind.scope != .owntracks {
            let first = String(kind.path.split(separator: "/")[0])
            #expect(WalkerID(validating: first) == nil, "\(kind)")
        }
    }

    @Test func accountTopicsParseBackAndAreNoWalkers() throws {
        #expect(Topic.parse("safewalk/_accounts/command") == .accountCommand)
        #expect(Topic.parse("t/a/_accounts/result", prefix: "t/a") == .accountResult)
        #expect(Topic.parse("safewalk/_accounts/erase/notifier") == .accountErase(.notifier))
        #expect(Topic.parse("safewalk/_accounts/erased/web") == .accountErased(try ServiceName("web")))
        for name in [
            "safewalk/_accounts", "safewalk/_accounts/command/x", "safewalk/_accounts/erase",
            "safewalk/_accounts/erase/a b", "safewalk/_accounts/other",
        ] {
            #expect(Topic.parse(name) == nil, "\(name)")
        }
        #expect(Topic.accountCommand.walker == nil && Topic.accountCommand.service == nil)
        #expect(Topic(system: .accountResult) == .accountResult)
        #expect(Topic(system: .fix) == nil)
    }

    /// `_incidents/{w}` is about a walker but outside `{prefix}/{w}/`, which the broker's `%u`
    /// rule lets that walker's device read: a duress incident must never reach the device.
    @Test func incidentTopicsAreAboutAWalkerButOutsideItsOwnSubtree() throws {
        let carol = walker("carol")
        #expect(Topic.incident(carol).name() == "safewalk/_incidents/carol")
        #expect(Topic.incident(carol).walker == carol && Topic.incident(carol).service == nil)
        #expect(Topic.parse("t/a/_incidents/carol", prefix: "t/a") == .incident(carol))
        #expect(!TopicFilter.walker(carol).matches(Topic.incident(carol).name()))
        #expect(TopicFilter.every(.incident).rawValue == "safewalk/_incidents/+")
        for name in ["safewalk/_incidents", "safewalk/_incidents/a b", "safewalk/_incidents/carol/x"] {
            #expect(Topic.parse(name) == nil, "\(name)")
        }
        #expect(WalkerID(validating: "_incidents") == nil)
        #expect(Topic(.incident, service: .watchdog) == nil && Topic(system: .incident) == nil)
    }

    @Test(arguments: ["safewalk", "a/b", "test-123", "sw_2"])
    func acceptsUsablePrefixes(prefix: String) {
        #expect(Topic.isValidPrefix(prefix))
    }

    @Test(arguments: ["", "a/+", "#", "a//b", "/a", "a/", "$SYS", "owntracks"])
    func refusesUnusablePrefixes(prefix: String) {
        #expect(!Topic.isValidPrefix(prefix))
    }

    @Test func refusesAPrefixWithNUL() {
        #expect(!Topic.isValidPrefix("a\u{0}b"))
    }
}
