import Foundation
import SafeWalkCore

/// Every hostile candidate for every input kind, deterministic for a given walker and `now`.
///
/// Candidates are what the generator *means* to be hostile. Which of them each service really
/// refuses is decided by the services' own pure decoders (see `HostileInputTests/Verdicts`), and
/// only those refused by every reader of their topic are sent: a mutation that happens to be
/// valid (removing an optional field, say) is dropped there, never guessed here.
public struct HostileCorpus: Sendable {
    public let samples: ValidSamples
    public let prefix: String

    public init(walker: String, now: EpochSeconds, prefix: String = Topic.defaultPrefix) {
        samples = ValidSamples(walker: walker, now: now)
        self.prefix = prefix
    }

    /// All candidates, kind by kind.
    public var candidates: [HostileCase] {
        InputKind.allCases.flatMap { candidates(for: $0) }
    }

    public func candidates(for kind: InputKind) -> [HostileCase] {
        let topic = kind.topic(walkerLevel: samples.walker, prefix: prefix)
        func make(_ family: HostileFamily, _ label: String, _ bytes: [UInt8], on topic: String = topic) -> HostileCase {
            HostileCase(kind: kind, family: family, label: label, topic: topic, payload: Data(bytes))
        }
        var cases: [HostileCase] = []
        if kind == .presence {
            // Plain text: its truncations and bytes, not JSON mutations.
            for text in ValidSamples.presence {
                let bytes = Array(text.utf8)
                cases += (1..<bytes.count).map { make(.truncation, "\(text) cut at \($0)", Array(bytes.prefix($0))) }
                cases.append(
                    make(.invalidUTF8, "\(text) with FF", Array(bytes.prefix(2)) + [0xFF] + bytes.dropFirst(2)))
            }
        }
        for seed in samples.json(kind) {
            cases += JSONMutations(seed: seed).all.map { make($0.family, $0.label, $0.bytes) }
        }
        cases += HandMadeCases(samples: samples).cases(kind).map { make($0.family, $0.label, $0.bytes) }
        if HostileTopics.walkerLevelKinds.contains(kind), let valid = samples.payloads(kind).first {
            cases += HostileTopics.levels.map { level in
                make(
                    .hostileTopic, "walker level \(level.prefix(20).debugDescription)", Array(valid),
                    on: kind.topic(walkerLevel: level, prefix: prefix))
            }
        }
        if kind == .owntracks, let valid = samples.payloads(kind).first {
            cases += HostileTopics.levels.map { level in
                make(
                    .hostileTopic, "device level \(level.prefix(20).debugDescription)", Array(valid),
                    on: kind.topic(walkerLevel: samples.walker, device: level, prefix: prefix))
            }
        }
        return cases
    }

    /// Messages that look odd but are deliberately *not* rejections: OwnTracks messages of
    /// another `_type` (ingest ignores them: the app sends them all the time; `lwt` is not among
    /// them, it says the device is gone) and an empty presence or OwnTracks message (a retained
    /// message being cleared). Sending them must leave every rejection counter where it was.
    public var ignoredByDesign: [HostileCase] {
        let owntracks = InputKind.owntracks.topic(walkerLevel: samples.walker)
        let types = [
            "transition", "card", "waypoint", "waypoints", "status", "encrypted", "cmd", "steps", "LOCATION", "LWT", "",
        ]
        return types.map { type in
            HostileCase(
                kind: .owntracks, family: .handMade, label: "OwnTracks _type \(type.debugDescription)",
                topic: owntracks,
                payload: RawJSON.object(["_type": .string(type), "tst": .number(1)]).data)
        } + [
            HostileCase(
                kind: .presence, family: .handMade, label: "empty presence",
                topic: InputKind.presence.topic(walkerLevel: samples.walker), payload: Data()),
            HostileCase(
                kind: .owntracks, family: .handMade, label: "empty OwnTracks message", topic: owntracks, payload: Data()
            ),
        ]
    }

    /// Payloads over the broker's `message_size_limit` (256 KiB): the broker drops the first
    /// (under `max_packet_size`) and disconnects the client that sends the second (1 MiB), so no
    /// service ever sees them. Sent at QoS 0 from a throwaway client, never counted.
    public var overBrokerLimit: [HostileCase] {
        let topic = InputKind.reply.topic(walkerLevel: samples.walker, prefix: prefix)
        return [262_144 + 1_000, 1_048_576].map { size in
            let seed = samples.json(.reply)[0]
            let base = seed.appending(.init("pad", .string(""))).bytes.count
            let payload = seed.appending(.init("pad", .string(String(repeating: "x", count: size - base)))).data
            return HostileCase(kind: .reply, family: .oversize, label: "\(size) bytes", topic: topic, payload: payload)
        }
    }
}
