import SafeWalkCore

/// The answer to an `ack` command, from the notifier's answer to the acknowledgement it caused:
/// a contact is told "done" only once the ladder has it, and why not otherwise (the alert is over,
/// or not on the ladder yet in the first seconds after the notifier starts).
enum CircleAcknowledgement {
    static func answer(to command: CircleResult, of other: WalkerID, from result: AcknowledgementResult)
        -> CircleResult
    {
        var answer = command
        guard !result.ok else {
            answer.ok = true
            answer.error = nil
            return answer
        }
        answer.ok = false
        switch result.error {
        case .closed:
            answer.error = CircleError(.noOpenIncident, message: "\(other) is safe: the alert is over.")
        case .unknownRecipient, .none:
            answer.error = CircleError(
                .noOpenIncident, message: "\(other)'s alert is not on the ladder yet. Please try again in a moment.")
        case .refused, .codeNeeded:  // an app's request names the walker: never asked for a code
            answer.error = CircleError(.invalidCommand, message: "The notifier could not read the request.")
        }
        return answer
    }
}
