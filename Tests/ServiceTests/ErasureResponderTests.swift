import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import Synchronization
import Testing

/// A service's part of an account deletion: it erases the walker the request names, answers
/// with the outcome on its own report topic, and refuses a request it cannot read without
/// erasing anyone.
@Suite("Erasure responder")
struct ErasureResponderTests {
    let alice = WalkerID(validating: "alice")!
    let prefix = "safewalk"

    /// The walkers the service was asked to erase.
    final class Erased: Sendable {
        let walkers = Mutex<[WalkerID]>([])
        var all: [WalkerID] { walkers.withLock { $0 } }
    }

    func responder(
        _ bus: InMemoryMessageBus, erased: Erased, outcome: EraseReport.Failure? = nil,
        partition: WalkerPartition? = nil
    ) async throws -> (ErasureResponder, RejectionReporter) {
        let logger = Logger(label: "test")
        let reporter = RejectionReporter(service: .contactsStore, prefix: prefix, bus: bus, logger: logger)
        let subscription = try await ErasureResponder.subscribe(bus: bus, prefix: prefix, service: .contactsStore)
        let responder = ErasureResponder(
            service: .contactsStore, bus: bus, prefix: prefix, subscription: subscription, reporter: reporter,
            logger: logger, now: { 1_000 }, partition: partition,
            erase: { walker in
                erased.walkers.withLock { $0.append(walker) }
                return outcome
            })
        return (responder, reporter)
    }

    func request(_ payload: String) -> MQTTMessage {
        MQTTMessage(
            topic: Topic.accountErase(.contactsStore).name(prefix: prefix), payload: Data(payload.utf8),
            qos: .atLeastOnce)
    }

    func reports(_ bus: InMemoryMessageBus) throws -> [EraseReport] {
        try bus.published(matching: Topic.accountErased(.contactsStore).name(prefix: prefix)).map {
            try SafeWalkJSON.decode(EraseReport.self, from: $0.payload)
        }
    }

    @Test func aRequestErasesTheWalkerAndReportsOK() async throws {
        let bus = InMemoryMessageBus()
        let erased = Erased()
        let (responder, _) = try await responder(bus, erased: erased)
        await responder.handle(request(#"{"v":1,"id":"e-1","user":"alice"}"#))
        #expect(erased.all == [alice])
        #expect(try reports(bus) == [EraseReport(id: "e-1", user: alice, ok: true)])
    }

    /// One of several partitioned instances: a request about another instance's walker is that
    /// instance's to answer, so this one neither erases nor reports (two reports could disagree).
    @Test func aRequestAboutAWalkerItDoesNotAnswerForIsLeftAlone() async throws {
        let bus = InMemoryMessageBus()
        let erased = Erased()
        // Partition 0 of 2 owns bob and not alice (WalkerPartitionTests: the engine's routing).
        let (responder, _) = try await responder(bus, erased: erased, partition: WalkerPartition(index: 0, count: 2))
        await responder.handle(request(#"{"v":1,"id":"e-5","user":"alice"}"#))
        #expect(erased.all.isEmpty)
        #expect(try reports(bus).isEmpty)
        await responder.handle(request(#"{"v":1,"id":"e-6","user":"bob"}"#))
        #expect(try reports(bus).map(\.id) == ["e-6"])
    }

    @Test func aRefusalIsReportedWithItsReason() async throws {
        let bus = InMemoryMessageBus()
        let erased = Erased()
        let (responder, _) = try await responder(bus, erased: erased, outcome: .openIncident)
        await responder.handle(request(#"{"v":1,"id":"e-2","user":"alice"}"#))
        #expect(try reports(bus) == [EraseReport(id: "e-2", user: alice, ok: false, error: .openIncident)])
    }

    @Test func anUnreadableRequestErasesNobodyAndIsCounted() async throws {
        let bus = InMemoryMessageBus()
        let erased = Erased()
        let (responder, reporter) = try await responder(bus, erased: erased)
        for payload in [
            #"{"v":1,"id":"e-3","user":"_service"}"#, #"{"v":1,"id":"e-3","user":"a/b"}"#,
            #"{"id":"e-3","user":"alice"}"#, "alice", #"{"v":1,"user":"alice"}"#,
            String(repeating: "x", count: 2_000),
        ] {
            await responder.handle(request(payload))
        }
        #expect(erased.all.isEmpty)
        #expect(try reports(bus).isEmpty)
        #expect(reporter.total == 6)
    }
}
