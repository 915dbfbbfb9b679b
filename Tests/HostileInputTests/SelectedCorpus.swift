import Foundation
import SafeWalkCore
import TestSupport

/// A hostile case with every reader's verdict on it.
struct Judged: Sendable {
    let hostile: HostileCase
    let verdicts: [ServiceName: Verdict]

    var rejectedByAll: Bool {
        verdicts.values.allSatisfy { if case .rejected = $0 { true } else { false } }
    }
    var ignoredByAll: Bool { verdicts.values.allSatisfy { $0 == .ignored } }
}

/// The corpus that is sent: the candidates every reader of their topic refuses, as judged by
/// the services' own decoders. Candidates some reader accepts are set aside (`dropped`), so a
/// mutation that happens to be valid is never sent as "hostile", and never counted.
struct SelectedCorpus: Sendable {
    static let walker = "mallory"

    let now: EpochSeconds
    let sent: [Judged]
    let dropped: [Judged]
    /// Messages that must be ignored, not counted (non-location OwnTracks, empty presence).
    let ignored: [Judged]
    let overBrokerLimit: [HostileCase]

    init(now: EpochSeconds) {
        self.now = now
        let corpus = HostileCorpus(walker: Self.walker, now: now)
        let judged = corpus.candidates.map { Judged(hostile: $0, verdicts: Verdicts.verdicts(on: $0, now: now)) }
        sent = judged.filter(\.rejectedByAll)
        dropped = judged.filter { !$0.rejectedByAll }
        ignored = corpus.ignoredByDesign.map { Judged(hostile: $0, verdicts: Verdicts.verdicts(on: $0, now: now)) }
        overBrokerLimit = corpus.overBrokerLimit
    }

    /// What each service's `safewalk_rejections_total` must read, by reason, once `sent` has
    /// been delivered: one count per reader of each message.
    var expectedRejections: [ServiceName: [String: Int]] {
        var expected: [ServiceName: [String: Int]] = [:]
        for judged in sent {
            for case (let service, .rejected(let reason)) in judged.verdicts {
                expected[service, default: [:]][reason, default: 0] += 1
            }
        }
        return expected
    }

    func sent(_ kind: InputKind) -> [Judged] { sent.filter { $0.hostile.kind == kind } }
}
