import Foundation
import SafeWalkCore
import Testing

@testable import WatchdogKit

/// Retained rows go out newest per key, one per topic at a time, in commit order: a walker's
/// statuses never overtake each other and an incident's close always precedes the next incident.
@Suite struct RetainedRoundsTests {
    func row(_ walker: String, _ key: String, seq: Int64) -> OutboxRow {
        let kind: OutboxItem.Kind = key.hasPrefix("status/") ? .status : .incident
        return OutboxRow(
            seq: seq,
            item: OutboxItem(
                key: key, kind: kind, walker: WalkerID(validating: walker)!,
                topic: kind == .status ? "safewalk/\(walker)/status" : "safewalk/_incidents/\(walker)", payload: Data(),
                retain: true, createdAt: 0))
    }

    @Test func theCloseOfOneIncidentGoesOutBeforeTheNextOneAndOnlyTheNewestStateOfEach() {
        let rows = [
            row("alice", "incident/alice/e1", seq: 1),  // open
            row("bob", "incident/bob/e2", seq: 2),
            row("alice", "incident/alice/e1", seq: 3),  // raised: replaces the open
            row("alice", "incident/alice/e1", seq: 4),  // closed: replaces the raise
            row("alice", "incident/alice/e5", seq: 5),  // the next incident
        ]
        let rounds = RetainedRounds.rounds(rows).map { $0.map(\.seq) }
        #expect(rounds == [[2, 4], [5]])
    }

    /// Rows a failed commit published anyway have no sequence number: commit order decides.
    @Test func commitOrderDecidesNotSequenceNumbers() {
        let rows = [row("alice", "status/alice", seq: 10), row("alice", "status/alice", seq: -1)]
        #expect(RetainedRounds.rounds(rows).map { $0.map(\.seq) } == [[-1]])
        let two = [row("alice", "incident/alice/e1", seq: 10), row("alice", "incident/alice/e2", seq: -1)]
        #expect(RetainedRounds.rounds(two).map { $0.map(\.seq) } == [[10], [-1]])
    }

    /// A walker's status and incident state are different topics: they may go out together.
    @Test func aStatusAndAnIncidentStateShareARound() {
        let rows = [row("alice", "status/alice", seq: 1), row("alice", "incident/alice/e1", seq: 2)]
        #expect(RetainedRounds.rounds(rows).map { $0.map(\.seq) } == [[1, 2]])
    }

    @Test func nothingToSendIsNoRound() {
        #expect(RetainedRounds.rounds([]).isEmpty)
    }
}
