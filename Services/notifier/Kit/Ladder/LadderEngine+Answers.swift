import Foundation
import GRDB
import SafeWalkCore
import SafeWalkService

extension LadderEngine {
    /// "I'm on it": finds the incident and who says it (a recipient by page digest, or by number
    /// and code; a SafeWalk user or the monitoring desk by the walker's latest incident), stops the
    /// climb and admits the `#ack` job, all in one transaction; answers for `_acks/result`.
    public func acknowledge(_ request: AcknowledgementRequest, now: Double) async throws -> (
        AcknowledgementResult, Outcome
    ) {
        try await ledger.write { [self] db in
            var outcome = Outcome()
            func failure(_ error: AcknowledgementResult.Failure) -> (AcknowledgementResult, Outcome) {
                (AcknowledgementResult(id: request.id, ok: false, error: error), outcome)
            }
            guard let claim = try Self.match(db, request, desk: context.desk),
                let (record, members) = try LadderStore.load(db, incident: claim.incident),
                let name = claim.name(among: members)
            else { return failure(.unknownRecipient) }
            guard !record.ladder.isClosed else {
                return (
                    AcknowledgementResult(
                        id: request.id, ok: false, error: .closed, walker: record.walker, incident: claim.incident),
                    outcome
                )
            }
            var standing = record.ladder.acknowledgement?.by ?? name
            try step(db, claim.incident, now: now, into: &outcome) { record, members in
                let steps = record.ladder.acknowledge(by: name, at: now)
                if !steps.isEmpty {
                    record.acknowledgedVia = request.via
                    record.acknowledgedKey = claim.key
                    record.acknowledgedOperator = claim.operator
                }
                standing = record.ladder.acknowledgement?.by ?? name
                return LadderJobs.jobs(for: steps, record: &record, members: &members, now: now, context: context)
            }
            return (
                AcknowledgementResult(
                    id: request.id, ok: true, walker: record.walker, incident: claim.incident, by: standing),
                outcome
            )
        }
    }

    /// Who says "I'm on it" about which incident.
    struct Claim {
        var incident: String
        /// A recipient of the ladder: their key (the acknowledger is not texted "is handling it").
        var key: String?
        /// A SafeWalk user (`via: app`), who is no recipient of the ladder: named by their id.
        var user: WalkerID?
        /// The monitoring desk (`via: desk`): its name, and the operator's account behind it.
        var desk: String?
        var `operator`: String?

        /// The name the acknowledgement stands under; nil when the recipient is not on the ladder.
        func name(among members: [LadderMember]) -> String? {
            if let desk { return desk }
            if let user { return user.rawValue }
            return members.first { $0.key == key }?.name
        }
    }

    /// The incident and acknowledger a request names. A number without a code picks the latest
    /// open incident that told it, a user or the desk (named `desk`) the walker's latest open
    /// incident (a closed one only when none is open, to answer `closed`).
    static func match(_ db: Database, _ request: AcknowledgementRequest, desk: String) throws -> Claim? {
        switch request.via {
        case .page:
            guard let digest = request.page else { return nil }
            let found = try LadderStore.incidents(db, digest: digest)
            return found.first.map { Claim(incident: $0.incident, key: $0.key) }
        case .sms:
            guard let raw = request.phone, let phone = PhoneNumber.normalise(raw).dialable else { return nil }
            let found = try LadderStore.incidents(db, phone: phone, code: request.code)
            return found.first.map { Claim(incident: $0.incident, key: phone) }
        case .app:
            guard let user = request.user, let walker = request.walker else { return nil }
            return try LadderStore.latestIncident(db, walker: walker).map { Claim(incident: $0, user: user) }
        case .desk:
            // `user` is the operator's account: it stands under the desk's name, never its own.
            guard let user = request.user, let walker = request.walker else { return nil }
            return try LadderStore.latestIncident(db, walker: walker).map {
                Claim(incident: $0, desk: desk, operator: user.rawValue)
            }
        }
    }

    /// A gateway's report on one text: noted on its recipient; a failure reaches them another way
    /// (``LadderFallback``), once per text. Unknown references and repeats do nothing.
    public func receipt(_ receipt: GatewayReceipt, now: Double) async throws -> Outcome {
        try await ledger.write { [self] db in
            var outcome = Outcome()
            guard let text = try LadderStore.text(db, ref: receipt.ref), text.status != receipt.status else {
                return outcome
            }
            let firstFailure =
                receipt.isFailure && !(text.status.map { $0 == "failed" || $0 == "undelivered" } ?? false)
            try LadderStore.setText(db, ref: receipt.ref, status: receipt.status)
            try step(db, text.incident, now: now, into: &outcome) { record, members in
                guard let index = members.firstIndex(where: { $0.key == text.key }) else { return [] }
                members[index].receipt = receipt.status
                record.note(.receipt, "The text to \(members[index].name): \(receipt.status)", at: now)
                guard firstFailure, !record.ladder.isClosed else { return [] }
                return LadderJobs.fallback(
                    for: text.key, record: &record, members: &members, now: now, context: context
                ).map { [$0] } ?? []
            }
            return outcome
        }
    }
}

extension LadderEngine {
    /// After the runner finished a job: each recipient it told shows `sent` (or `failed`) until
    /// the gateway says more. Only their latest text counts, and a gateway's word is never
    /// overwritten.
    public func delivered(_ job: LadderJob, now: Double) async throws -> Outcome {
        let progress = try await ledger.progress(of: job.event.id)
        return try await ledger.write { [self] db in
            var outcome = Outcome()
            guard let (record, members) = try LadderStore.load(db, incident: job.event.incident) else { return outcome }
            var changed = members
            for row in progress where row.state == .sent || row.state == .failed {
                let key = row.channel == LadderJobs.webhook ? LadderMember.dispatchKey : row.target.key
                guard let index = changed.firstIndex(where: { $0.key == key }), changed[index].receipt == nil else {
                    continue
                }
                let ref = job.plan.recipients.first { $0.phone == key }?.ref
                guard key == LadderMember.dispatchKey || ref == changed[index].ref else { continue }
                changed[index].receipt = row.state.rawValue
            }
            guard changed != members else { return outcome }
            let revision = try LadderStore.save(db, record, changed, settings: settings, now: now)
            outcome.states = [Published(revision: revision, state: record.state(members: changed))]
            return outcome
        }
    }
}
