import Foundation
import GRDB
import Logging
import NotifierKit
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import SafeWalkStorage
import TestSupport
import Testing

/// Two notifier instances, partitions 0 and 1 of 2, each with its own ledger, on one bus that
/// brings both every message (as on the cluster, where every instance reads every notifier input):
/// each walker is told of once, by the instance that owns them, and each "I'm on it" is answered
/// once, by the instance whose ledger holds its incident (docs/SCALING.md, "The notifier
/// partitioned").
@Suite(.holdsResources) struct NotifierPartitionTests {
    // FNV-1a modulo 2, as the engine routes (NotifierShareTests): alex → 1, bob → 0; carol → 0
    // and dana → 1 have no incident.
    static let alex = Fixtures.walker
    static let bob = try! WalkerID("bob")
    static let carol = try! WalkerID("carol")
    static let dana = try! WalkerID("dana")
    static let anaPhone = "+15125550101"

    struct Instance {
        let service: NotifierService
        let ledger: DeliveryLedger
        let sms: RecordingChannel
        let directory: URL
        let task: Task<Void, any Error>
    }

    struct Rig {
        let bus: InMemoryMessageBus
        var instances: [Instance] = []
        let answers: MQTTSubscription

        /// Every answer to the requests published so far, once both instances have read them all:
        /// a request each instance answers alone (about a walker of its own with no incident)
        /// is published last, and each instance reads its requests in order.
        func answers(after requests: [AcknowledgementRequest]) async throws -> [String: [AcknowledgementResult]] {
            let barriers = [
                AcknowledgementRequest(id: "barrier-0", via: .app, user: bob, walker: carol, at: Fixtures.now),
                AcknowledgementRequest(id: "barrier-1", via: .app, user: bob, walker: dana, at: Fixtures.now),
            ]
            for request in requests + barriers {
                try await bus.publish(Topic.acknowledgementRequest.name(), payload: SafeWalkJSON.encode(request))
            }
            var seen: [String: [AcknowledgementResult]] = [:]
            for await message in answers {
                let result = try SafeWalkJSON.decoder().decode(AcknowledgementResult.self, from: message.payload)
                seen[result.id, default: []].append(result)
                if seen["barrier-0"] != nil, seen["barrier-1"] != nil { break }
            }
            return seen
        }

        func stop() async {
            for instance in instances {
                instance.task.cancel()
                _ = await instance.task.result
                try? FileManager.default.removeItem(at: instance.directory)
            }
        }
    }

    /// Both instances running, alex's and bob's contact lists (Ana on both) read by their owners,
    /// and an escalation of each texted to Ana.
    static func rig() async throws -> Rig {
        let bus = InMemoryMessageBus()
        var rig = Rig(bus: bus, answers: try await bus.subscribe(Topic.acknowledgementResult.name(), qos: .atLeastOnce))
        for walker in [alex, bob] {
            try await rig.bus.publish(
                Topic.contacts(walker).name(), payload: SafeWalkJSON.encode(ContactList(contacts: [Fixtures.ana])),
                retain: true)
        }
        var logger = Logger(label: "test.notifier")
        logger.logLevel = .warning
        for index in 0..<2 {
            let (pool, directory) = try SQLiteStore.temporary(migrator: DeliveryLedger.migrator)
            let ledger = DeliveryLedger(pool: pool)
            let sms = RecordingChannel("sms-http")
            let service = try await NotifierService(
                settings: try Fixtures.settings(DeliveryTests.settle), bus: rig.bus, prefix: Fixtures.prefix,
                ledger: ledger, channels: [DeviceChannel(bus: rig.bus, prefix: Fixtures.prefix), sms],
                clock: VirtualClock(autoAdvance: true), logger: logger,
                ladderClock: VirtualClock(now: Fixtures.now), partition: WalkerPartition(index: index, count: 2))
            let task = Task { try await service.run() }
            rig.instances.append(Instance(service: service, ledger: ledger, sms: sms, directory: directory, task: task))
        }
        let (zero, one) = (rig.instances[0].service, rig.instances[1].service)
        try await withTimeout(60, "contacts read") {
            await one.book.waitForList(alex)
            await zero.book.waitForList(bob)
        }
        for (id, walker) in [("esc-alex", alex), ("esc-bob", bob)] {
            try await rig.bus.publish(
                Topic.escalation(walker).name(), payload: SafeWalkJSON.encode(Fixtures.escalation(id, walker: walker)))
        }
        try await rig.instances[1].sms.wait(for: "esc-alex")
        try await rig.instances[0].sms.wait(for: "esc-bob")
        return rig
    }

    @Test func eachWalkerIsToldOfOnceByTheInstanceThatOwnsThemAndKeptInItsLedgerAlone() async throws {
        let rig = try await Self.rig()
        let (zero, one) = (rig.instances[0], rig.instances[1])
        #expect(zero.sms.all.map(\.job) == ["esc-bob"])
        #expect(one.sms.all.map(\.job) == ["esc-alex"])
        #expect(try await zero.ledger.knows("esc-bob"))
        #expect(try await !zero.ledger.knows("esc-alex"))
        #expect(try await one.ledger.knows("esc-alex"))
        #expect(try await !one.ledger.knows("esc-bob"))
        #expect(await zero.service.book.contacts(for: Self.alex).isEmpty, "another instance's list is not kept")
        try await eventually("both receipts") {
            rig.bus.published(matching: "safewalk/_escalations/received/+").count >= 2
        }
        #expect(rig.bus.published(matching: "safewalk/_escalations/received/alex").count == 1)
        #expect(rig.bus.published(matching: "safewalk/_escalations/received/bob").count == 1)
        #expect(rig.bus.published(matching: "safewalk/alex/alert").count == 1)
        #expect(rig.bus.published(matching: "safewalk/bob/alert").count == 1)
        await rig.stop()
    }

    @Test func aTextReplyWithACodeReachesTheIncidentThatCarriedItAndOneWithoutIsAskedForIt() async throws {
        let rig = try await Self.rig()
        let codes = try rig.instances.map { try #require($0.sms.all.first?.plan.code) }
        #expect(codes.map { Int($0)! % 2 } == [0, 1], "each instance's codes are its own modulo 2")
        let seen = try await rig.answers(after: [
            AcknowledgementRequest(id: "ok-alex", via: .sms, phone: Self.anaPhone, code: codes[1], at: Fixtures.now),
            AcknowledgementRequest(id: "ok-bare", via: .sms, phone: Self.anaPhone, at: Fixtures.now),
        ])
        let alex = try #require(seen["ok-alex"])
        #expect(alex.count == 1 && alex[0].ok && alex[0].walker == Self.alex && alex[0].by == "Ana")
        #expect(seen["ok-bare"] == [AcknowledgementResult(id: "ok-bare", ok: false, error: .codeNeeded)])
        #expect(seen["barrier-0"]?.count == 1 && seen["barrier-1"]?.count == 1)
        #expect(
            seen["barrier-0"]?.first?.error == .unknownRecipient && seen["barrier-1"]?.first?.error == .unknownRecipient
        )
        await rig.stop()
    }

    @Test func aPagesButtonNamingItsWalkerIsAnsweredOnceAndAnUnreadableRequestIsRefusedOnce() async throws {
        let rig = try await Self.rig()
        let token = try #require(rig.instances[0].sms.all.first?.plan.recipients.first?.page)
        try await rig.bus.publish(Topic.acknowledgementRequest.name(), string: #"{"v":1,"id":"broken","via":"fax"}"#)
        let seen = try await rig.answers(after: [
            AcknowledgementRequest(
                id: "page-bob", via: .page, page: PageToken.digest(token), walker: Self.bob, at: Fixtures.now)
        ])
        let bob = try #require(seen["page-bob"])
        #expect(bob.count == 1 && bob[0].ok && bob[0].walker == Self.bob)
        #expect(seen["broken"] == [AcknowledgementResult(id: "broken", ok: false, error: .refused)])
        await rig.stop()
    }
}
