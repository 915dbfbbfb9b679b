import SafeWalkCore

/// The text one contact receives: the same for everyone but for their own page link, which
/// is why the body is made per target and not once per plan.
public enum SMSText {
    /// The plan's message, then (when the plan gave them a page and a public URL is set) their
    /// live link, then (when the text asks for an answer) how to say "I'm on it".
    public static func body(plan: DeliveryPlan, phone: String, publicURL: String?) -> String {
        var lines = [plan.message]
        let recipient = plan.recipients.first { $0.phone == phone }
        if let publicURL, let token = recipient?.page { lines.append("Live: \(publicURL)/i/\(token)") }
        if let code = plan.code { lines.append("Reply OK \(code) if you're on it.") }
        return lines.joined(separator: "\n")
    }

    /// Where the gateway reports on one text (`{callback}` in the template), or "" when there is
    /// no public URL to receive it or no reference to name the text.
    public static func callback(publicURL: String?, ref: String?) -> String {
        guard let publicURL, let ref, !ref.isEmpty else { return "" }
        return "\(publicURL)/v1/gateway/sms/status?ref=\(ref)"
    }
}
