import Foundation
import SafeWalkCore

/// How far one pass over an erasure got.
public enum ErasureProgress: Hashable, Sendable {
    /// Every service reported; the account is gone.
    case finished
    /// Some services have not reported yet; the job stays and is retried.
    case continuing
    /// The watchdog refused (an open incident) or, for a request being answered, the first steps
    /// could not run: the account is active again.
    case cancelled(APIError)
}

extension Accounts {
    /// `DELETE /v1/accounts/{user}`: 200 when every service erased within the wait, 202 when the
    /// job goes on in the background, 409 while an incident is open, 503 when the first steps
    /// could not run (nothing was erased).
    public func delete(session: Session) async throws -> ErasureProgress {
        let id = UUID().uuidString.lowercased()
        guard
            let erasure = try await database.startErasure(
                id: id, key: session.usernameKey, remaining: ErasingServices.rest, at: now())
        else { throw APIError.unauthenticated }
        logger.info("erasure started", metadata: ["walker": "\(erasure.user)", "erasure": "\(id)"])
        return try await advance(erasure, answering: true)
    }

    /// One pass: (0) clear the walker's `_members/{w}` (published again if the erasure is
    /// cancelled), (1) `disable` the walker's logins and (2) ask the watchdog, while the job is
    /// `started`; then (3) ask every service still to report, together, within
    /// `settings.eraseWait`. `answering` is true when a person waits for the answer: then a first
    /// step that cannot run cancels the job (503) instead of leaving it to the background.
    public func advance(_ erasure: Erasure, answering: Bool) async throws -> ErasureProgress {
        // One pass at a time per erasure: the resumer must not ask the other services while the
        // request that started it may still cancel it.
        guard erasing.claim(erasure.id) else { return .continuing }
        defer { erasing.release(erasure.id) }
        // Nobody may follow a person being erased, from the first step. Every pass clears again
        // (one small retained message), so a clear the broker missed is made by the next.
        await withdraw(erasure.user)
        var erasure = erasure
        if erasure.phase == .started {
            switch await firstSteps(erasure) {
            case .erased:
                erasure.phase = .erasing
                try await database.updateErasure(erasure)
            case .refused:
                return try await cancel(erasure, because: .openIncident)
            case .noAnswer:
                if answering { return try await cancel(erasure, because: .unavailable) }
                return .continuing
            }
        }
        let reported = await askTogether(erasure)
        erasure.remaining.removeAll { reported.contains($0) }
        guard erasure.remaining.isEmpty else {
            try await database.updateErasure(erasure)
            logger.notice(
                "erasure waiting for services",
                metadata: ["walker": "\(erasure.user)", "remaining": "\(erasure.remaining.map(\.rawValue))"])
            return .continuing
        }
        try await database.finishErasure(erasure)
        logger.info("account erased", metadata: ["walker": "\(erasure.user)", "erasure": "\(erasure.id)"])
        return .finished
    }

    private enum FirstSteps { case erased, refused, noAnswer }

    private func firstSteps(_ erasure: Erasure) async -> FirstSteps {
        guard let disabled = await command(.disable, erasure.user), disabled.ok || disabled.error == .notFound else {
            return .noAnswer
        }
        switch await ask(ErasingServices.first, erasure, within: settings.commandWait) {
        case .some(let report) where report.ok: return .erased
        case .some(let report) where report.error == .openIncident: return .refused
        default: return .noAnswer
        }
    }

    private func cancel(_ erasure: Erasure, because reason: APIError) async throws -> ErasureProgress {
        _ = await command(.enable, erasure.user)
        try await database.cancelErasure(erasure)
        if let account = try await database.account(key: erasure.usernameKey) {
            await announce(account.username, createdAt: account.createdAt)
        }
        logger.notice("erasure cancelled", metadata: ["walker": "\(erasure.user)", "reason": "\(reason.reason)"])
        return .cancelled(reason)
    }

    /// The services that reported their part erased.
    private func askTogether(_ erasure: Erasure) async -> Set<ServiceName> {
        await withTaskGroup(of: ServiceName?.self) { group in
            for service in erasure.remaining {
                group.addTask {
                    let report = await ask(service, erasure, within: settings.eraseWait)
                    return report?.ok == true ? service : nil
                }
            }
            var reported: Set<ServiceName> = []
            for await service in group { if let service { reported.insert(service) } }
            return reported
        }
    }

    private func ask(_ service: ServiceName, _ erasure: Erasure, within wait: Duration) async -> EraseReport? {
        let request = EraseRequest(id: erasure.id, user: erasure.user)
        do {
            let report = try await Deadline.run(wait, clock: clock) { [eraser] in
                try await eraser.erase(request, at: service)
            }
            guard report.id == request.id, report.user == request.user else { return nil }
            if !report.ok {
                logger.warning(
                    "service did not erase",
                    metadata: [
                        "service": "\(service)", "walker": "\(erasure.user)",
                        "error": "\(report.error?.rawValue ?? "none")",
                    ])
            }
            return report
        } catch {
            logger.warning(
                "service did not answer an erasure",
                metadata: ["service": "\(service)", "walker": "\(erasure.user)", "error": "\(error)"])
            return nil
        }
    }
}
