import SafeWalkCore

/// Which notifier instance does what when the walkers are split N ways (`SAFEWALK_PARTITIONS`,
/// docs/SCALING.md, "The notifier partitioned"). Instance K owns the walkers
/// ``WalkerPartition/of(_:count:)`` names K: their contact lists, escalations, incidents and
/// ladders, in its own ledger. Every instance reads every notifier input; these rules decide,
/// each from the message alone, the one instance that acts on it, so that nothing is told twice
/// and nothing is answered by N instances that could disagree.
///
/// The escalation topic is not routed by the engine, as the watchdog's inputs are: it is part of
/// the contract that out-of-process channels, contacts-store and the operator read as
/// `{w}/escalation` (docs/CHANNELS.md), and a mapping would move it away from them. The notifier's
/// inputs come per incident or per edit of a list, not per fix, so N instances reading them all
/// and dropping the others' on the network thread costs little.
public struct NotifierShare: Sendable, Hashable {
    /// nil: one notifier for every walker.
    public let partition: WalkerPartition?

    public init(_ partition: WalkerPartition?) { self.partition = partition }

    /// Whether this instance keeps a message on a per-walker topic (contacts, escalation,
    /// incident): its own walkers', and, on partition 0 alone, a topic naming no readable walker,
    /// so that it is refused once.
    public func admits(topic: String, prefix: String) -> Bool {
        guard partition != nil else { return true }
        return WalkerPartition.answers(partition, for: Topic.parse(topic, prefix: prefix)?.walker)
    }

    /// What this instance does with an "I'm on it".
    public enum AcknowledgementTurn: Sendable, Hashable {
        /// Match it in this instance's ledger and answer.
        case answer
        /// Answer `codeNeeded`: a text reply without the incident's code, with several ledgers
        /// that could each hold an incident that told the number.
        case askForCode
        /// Another instance answers.
        case leave
    }

    /// The one instance that answers `request`: the walker's, when the request names one (a page's
    /// button, an app user or the desk); for a text reply, the code's (``mintCode(random:)``
    /// makes every code of instance K equal K modulo N); else partition 0.
    public func turn(for request: AcknowledgementRequest) -> AcknowledgementTurn {
        guard let partition else { return .answer }
        if request.via == .sms, request.walker == nil {
            guard let code = request.code.flatMap({ Int($0) }) else { return reportsUnowned ? .askForCode : .leave }
            return code % partition.count == partition.index ? .answer : .leave
        }
        return WalkerPartition.answers(partition, for: request.walker) ? .answer : .leave
    }

    /// Whether this instance reports a refused input that names no walker it could belong to (an
    /// unreadable acknowledgement or gateway receipt): partition 0 alone, so it is counted once.
    public var reportsUnowned: Bool { WalkerPartition.answers(partition, for: nil) }

    /// A 4-digit reply code ("OK 4821") for a new incident of this instance: any of 0000–9999 for
    /// one notifier; of N, one whose value modulo N is this partition, so that a reply carrying it
    /// reaches the instance whose ledger holds it (``turn(for:)``). At N = 100 that leaves 100
    /// codes per instance; a code only has to tell apart the open incidents that texted one number.
    public func mintCode(random: (Range<Int>) -> Int = { Int.random(in: $0) }) -> String {
        let value: Int
        if let partition {
            let choices = (LadderCode.space - partition.index + partition.count - 1) / partition.count
            value = random(0..<choices) * partition.count + partition.index
        } else {
            value = random(0..<LadderCode.space)
        }
        return LadderCode.text(value)
    }
}

/// The reply code's form: four decimal digits.
enum LadderCode {
    static let space = 10_000

    static func text(_ value: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
