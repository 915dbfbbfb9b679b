import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import ServiceLifecycle

/// The ladder's loops: its clock, the watchdog's incident states, acknowledgements and gateway
/// receipts. Each hands an event to the ``LadderEngine`` (one transaction) and then applies the
/// outcome: jobs to the runner, states to `_ladder/{w}`.
extension NotifierService {
    /// Hands the jobs to the runner and publishes the states.
    func apply(_ outcome: LadderEngine.Outcome) async {
        for job in outcome.jobs { jobSink.yield(job) }
        for published in outcome.states { await publisher.publish(published) }
    }

    /// Shows on `_ladder/{w}` that the job's texts went out (or failed).
    func noteDelivered(_ job: LadderJob) async {
        guard !Task.isCancelled else { return }  // unfinished: the ledger resumes it
        do {
            await apply(try await engine.delivered(job, now: ladderClock.now()))
        } catch {
            logger.warning("ladder receipts not noted", metadata: ["job": "\(job.event.id)", "error": "\(error)"])
        }
    }

    /// Sleeps until the earliest deadline of the open ladders (or a wake), then advances them.
    func runLadderClock() async {
        while !Task.isCancelled {
            let deadline: Double
            do {
                // No open ladder: a wake comes with the next one; the hour only bounds the wait.
                deadline = try await engine.nextDeadline() ?? ladderClock.now() + 3600
            } catch {
                logger.error("ladder deadlines unreadable", metadata: ["error": "\(error)"])
                deadline = ladderClock.now() + 5
            }
            await wakeup.wait(until: deadline, on: ladderClock)
            guard !Task.isCancelled else { return }
            do {
                await apply(try await engine.advance(to: ladderClock.now()))
            } catch {
                // Nothing was committed: the same steps are due at the next turn.
                logger.error("ladder not advanced", metadata: ["error": "\(error)"])
                try? await ladderClock.sleep(seconds: 5)
            }
        }
    }

    func consumeIncidents() async {
        for await message in incidents.cancelOnGracefulShutdown()
        where share.admits(topic: message.topic, prefix: prefix) {
            switch LadderIntake.incident(message, prefix: prefix) {
            case .success(nil):
                continue
            case .success(let state?):
                do {
                    await apply(try await engine.incident(state, now: ladderClock.now()))
                } catch {
                    logger.error(
                        "incident state not recorded",
                        metadata: ["incident": "\(state.incident)", "walker": "\(state.walker)", "error": "\(error)"])
                }
            case .failure(let refusal):
                await reject(refusal)
            }
        }
    }

    func consumeAcknowledgements() async {
        for await message in acknowledgements.cancelOnGracefulShutdown() {
            switch LadderIntake.acknowledgement(message) {
            case .success(let request):
                switch share.turn(for: request) {
                case .answer: break
                case .leave: continue
                case .askForCode:
                    logger.notice("acknowledgement by text without a code", metadata: ["id": "\(request.id)"])
                    await answer(AcknowledgementResult(id: request.id, ok: false, error: .codeNeeded))
                    continue
                }
                do {
                    let (result, outcome) = try await engine.acknowledge(request, now: ladderClock.now())
                    logger.notice(
                        "acknowledgement",
                        metadata: [
                            "id": "\(request.id)", "via": "\(request.via.rawValue)", "ok": "\(result.ok)",
                            "error": "\(result.error?.rawValue ?? "")", "incident": "\(result.incident ?? "")",
                        ])
                    await answer(result)
                    await apply(outcome)
                    wakeup.wake()
                } catch {
                    // No answer: `web` asks again, and asking again is harmless.
                    logger.error(
                        "acknowledgement not recorded", metadata: ["id": "\(request.id)", "error": "\(error)"])
                }
            case .failure(let refusal):
                guard share.reportsUnowned else { continue }
                await reject(refusal)
                if let id = refusal.id { await answer(AcknowledgementResult(id: id, ok: false, error: .refused)) }
            }
        }
    }

    func consumeGatewayReceipts() async {
        for await message in gatewayReceipts.cancelOnGracefulShutdown() {
            switch LadderIntake.receipt(message) {
            case .success(let receipt):
                do {
                    // Noted on `_ladder/{w}` only: the walker's `{w}/delivery` never hears the gateway.
                    // Every instance reads every receipt; only the one whose ledger sent the text
                    // knows its `ref`, and an unknown one does nothing.
                    await apply(try await engine.receipt(receipt, now: ladderClock.now()))
                } catch {
                    logger.error("gateway receipt not recorded", metadata: ["error": "\(error)"])
                }
            case .failure(let refusal):
                if share.reportsUnowned { await reject(refusal) }
            }
        }
    }

    private func answer(_ result: AcknowledgementResult) async {
        do {
            try await bus.publish(
                Topic.acknowledgementResult.name(prefix: prefix), payload: SafeWalkJSON.encode(result),
                qos: .atLeastOnce)
        } catch {
            logger.warning(
                "acknowledgement answer not published", metadata: ["id": "\(result.id)", "error": "\(error)"])
        }
    }

    private func reject(_ refusal: LadderIntake.Refusal) async {
        await rejections.reject(
            reason: refusal.code, topicKind: refusal.kind, walker: refusal.walker, id: refusal.id,
            now: clock.now())
    }
}
