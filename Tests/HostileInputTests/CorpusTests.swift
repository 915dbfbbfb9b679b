import Foundation
import SafeWalkCore
import TestSupport
import Testing

/// The corpus against the services' pure decoders: fast, no broker. These pin down what the
/// integration test relies on: the seeds are valid (so the mutations mean something), the corpus
/// is big and reaches every input topic, and what is *not* counted is not counted on purpose.
@Suite("Hostile corpus, judged by the services' own decoders")
struct CorpusTests {
    static let now = 1_800_000_000.0
    static let corpus = SelectedCorpus(now: now)

    @Test func everySeedIsAcceptedByEveryReader() {
        let samples = ValidSamples(walker: SelectedCorpus.walker, now: Self.now)
        for kind in InputKind.allCases {
            let topic = kind.topic(walkerLevel: SelectedCorpus.walker)
            for payload in samples.payloads(kind) {
                for service in Verdicts.readers(of: kind) {
                    let verdict = Verdicts.verdict(service, topic: topic, payload: payload, now: Self.now)
                    #expect(
                        verdict == .accepted,
                        "\(kind) seed \(String(decoding: payload, as: UTF8.self)) → \(service): \(verdict)")
                }
            }
        }
    }

    @Test func overAThousandRefusedCasesReachEveryInputTopicFromEveryFamily() {
        #expect(Self.corpus.sent.count >= 1_000)
        for kind in InputKind.allCases {
            #expect(Self.corpus.sent(kind).count >= 25, "\(kind): only \(Self.corpus.sent(kind).count)")
        }
        for family in HostileFamily.allCases {
            #expect(Self.corpus.sent.contains { $0.hostile.family == family }, "no \(family) case is refused")
        }
        #expect(Self.corpus.sent.allSatisfy { $0.rejectedByAll })
    }

    /// Broken structure is refused by every reader, whatever the field. Two exceptions are
    /// explicit: an empty payload clears a retained topic (`position`, `contacts`, the OwnTracks
    /// app's own), and a cry for
    /// help on `action` or `reply` is taken however broken it is (docs/CONTRACT.md, "Help is read
    /// generously"), so a needHelp cut after its action word still escalates.
    @Test(arguments: [HostileFamily.truncation, .deepNesting, .notAnObject, .nonFinite, .numberAsString])
    func structuralDamageIsAlwaysRefused(_ family: HostileFamily) {
        let clearsRetained: Set<InputKind> = [.position, .contacts, .owntracks]
        let cryChannels: [InputKind: Topic.Kind] = [.action: .action, .reply: .reply]
        for judged in Self.corpus.dropped where judged.hostile.family == family {
            let isCry =
                cryChannels[judged.hostile.kind].map {
                    CryForHelp.read(Data(judged.hostile.payload), on: $0) != nil
                } ?? false
            let allowed = isCry || (judged.hostile.payload.isEmpty && clearsRetained.contains(judged.hostile.kind))
            #expect(allowed, "\(judged.hostile.kind) \(judged.hostile.label): \(judged.verdicts)")
        }
    }

    /// Foundation's parser forgives a BOM, UTF-16, a trailing comma and a repeated key (the first
    /// wins). Those are not counted as hostile; what matters is that every service forgives
    /// them alike, so no two readers of one message can disagree about what it says.
    @Test func parserLeniencyIsTheSameInEveryService() {
        let samples = ValidSamples(walker: SelectedCorpus.walker, now: Self.now)
        for kind in InputKind.allCases where kind != .presence {
            for seed in samples.json(kind) {
                let lenient: [(String, [UInt8])] = [
                    ("BOM", [0xEF, 0xBB, 0xBF] + seed.bytes),
                    ("trailing comma", Array(seed.bytes.dropLast()) + Array(",}".utf8)),
                    ("first of two v wins", seed.appending(.init("v", .number(2))).bytes),
                ]
                for (name, bytes) in lenient {
                    let verdicts = Set(
                        Verdicts.readers(of: kind).map {
                            Verdicts.verdict(
                                $0, topic: kind.topic(walkerLevel: SelectedCorpus.walker), payload: Data(bytes),
                                now: Self.now)
                        })
                    #expect(verdicts.count == 1, "\(kind) \(name): readers disagree \(verdicts)")
                }
            }
        }
    }

    /// The corpus's finding: `"minutes": 1e308` was accepted, and its infinite ETA made every later
    /// status and escalation of that walker unencodable (a panic was logged, never published).
    @Test func aWalkWhoseETAOverflowsIsRefused() {
        let overflowing = Self.corpus.sent.filter {
            $0.hostile.kind == .action && $0.hostile.label == "minutes = 1e308"
        }
        #expect(overflowing.count == 1)
        #expect(overflowing.first?.verdicts[.watchdog] == .rejected("invalid_value"))
    }

    @Test func ignoredByDesignIsIgnoredNotRejected() {
        #expect(!Self.corpus.ignored.isEmpty)
        for judged in Self.corpus.ignored {
            #expect(judged.ignoredByAll, "\(judged.hostile.label): \(judged.verdicts)")
        }
    }

    @Test func theCorpusIsDeterministic() {
        let again = SelectedCorpus(now: Self.now)
        #expect(again.sent.map(\.hostile) == Self.corpus.sent.map(\.hostile))
    }

    @Test func brokerLimitCasesAreOverTheProductionBrokerLimit() throws {
        let limit = try HostileInputTests.brokerMessageSizeLimit()
        #expect(Self.corpus.overBrokerLimit.count == 2)
        #expect(Self.corpus.overBrokerLimit.allSatisfy { $0.payload.count > limit })
        #expect(Self.corpus.sent.allSatisfy { $0.hostile.payload.count < limit })
    }
}
