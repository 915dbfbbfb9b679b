import Foundation
import LocationIngestKit
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import SafeWalkStorage
import TestSupport
import Testing

/// Ingest K of N reads only the fixes the nodes route to partition K, ours and OwnTracks'. The
/// in-memory bus maps nothing, so the test publishes the routed forms itself.
@Suite(.holdsResources) struct IngestPartitionTests {
    @Test func ingestKReadsOnlyTheFixesRoutedToK() async throws {
        let bus = InMemoryMessageBus()
        let subscriptions = try await LocationIngestService.subscribe(
            bus: bus, prefix: "safewalk", partition: WalkerPartition(index: 1, count: 2))
        #expect(subscriptions.map(\.filter) == ["safewalk/+/fix/1", "owntracks/+/+/1"])
        let payload = Fixtures.fixJSON(lat: 30.2849, lon: -97.7341, tst: Fixtures.now, acc: 3)
        for topic in [
            "safewalk/bob/fix/0", "safewalk/dave/fix", "owntracks/bob/phone/0", "owntracks/bob/phone/cmd",
            "safewalk/alice/fix/1", "owntracks/alice/phone/1",
        ] {
            try await bus.publish(MQTTMessage(topic: topic, payload: payload))
        }
        var received: [String] = []
        for subscription in subscriptions { received += await subscription.drained().map(\.topic) }
        #expect(received.sorted() == ["owntracks/alice/phone/1", "safewalk/alice/fix/1"])
    }

    @Test func aRoutedFixIsTheWalkersFix() async throws {
        #expect(FixIntake.route("safewalk/alice/fix/1", prefix: "safewalk") == .walker(Fixtures.alice, .fix))
        #expect(
            FixIntake.route("owntracks/alice/phone/1", prefix: "safewalk") == .walker(Fixtures.alice, .owntracks))
        if case .walker = FixIntake.route("owntracks/alice/phone/cmd", prefix: "safewalk") {
            Issue.record("an OwnTracks command topic is no fix")
        }
    }
}
