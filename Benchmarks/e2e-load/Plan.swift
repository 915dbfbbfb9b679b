import Foundation
import SafeWalkMQTT

/// Watchdog thresholds for a run, passed to every service as the documented `SAFEWALK_*`
/// variables (shortened so that silences escalate inside the run).
struct Thresholds: Sendable {
    var checkIn: Double
    var noReply: Double
    var noMovement: Double
    var offlineGrace: Double = 600

    var environment: [String: String] {
        [
            "SAFEWALK_CHECKIN_INTERVAL": "\(checkIn)", "SAFEWALK_NO_REPLY_AFTER": "\(noReply)",
            "SAFEWALK_NO_MOVEMENT_AFTER": "\(noMovement)", "SAFEWALK_OFFLINE_GRACE": "\(offlineGrace)",
        ]
    }

    var description: String {
        "SAFEWALK_CHECKIN_INTERVAL=\(checkIn) SAFEWALK_NO_REPLY_AFTER=\(noReply) SAFEWALK_NO_MOVEMENT_AFTER=\(noMovement)"
    }
}

/// One load run: how many simulated walkers, on how many MQTT connections, for how long, and
/// which of them go silent when. Times are seconds; offsets are from the start of the window.
struct LoadPlan: Sendable {
    var walkers: Int
    var silent: Int
    var connections: Int
    var fixInterval: Double = 5
    /// Walkers start (`start` action, then fixes) spread evenly over this, so check-ins are too.
    var ramp: Double
    /// The measured window after the ramp; every walker publishes and answers throughout.
    var window: Double
    var silenceStart: Double
    var silenceSpan: Double
    /// At most this long after the window for due deliveries to arrive.
    var drain: Double
    var contacts: Int = 2
    var thresholds: Thresholds
    /// The QoS of the phones' fixes. 1, as the contract asks; 0 only to measure what QoS 1 costs
    /// a broker (on NATS every QoS 1 message goes through JetStream, docs/SCALING.md, "Sizing").
    /// At 0 a fix has no acknowledgement: "acknowledged" counts fixes sent.
    var fixQoS: QoS = .atLeastOnce

    /// The silent walkers, spread over the id range, and when each goes silent. The order of
    /// silences is scrambled (a multiplicative permutation): in id order, silence times rose in
    /// step with the walkers' check-in phases (also in id order), which bunched the deadlines
    /// into 2-second clusters 12 s apart, and a momentary fault could miss every one of them.
    func silenceOffset(of walker: Int) -> Double? {
        guard silent > 0 else { return nil }
        let stride = walkers / silent
        guard walker % stride == 0, walker / stride < silent else { return nil }
        let rank = (walker / stride * 7_919) % silent
        return silenceStart + silenceSpan * Double(rank) / Double(silent)
    }

    static func walkerID(_ n: Int) -> String { "w\(n)" }

    /// The reply window a NATS case needs: a node's SIGKILL stalls QoS 1 traffic while JetStream
    /// elects new stream leaders (7–10 s here, docs/SCALING.md), and with a 10 s window every
    /// walker's answer came too late and all 300 escalated. 30 s is still far shorter than a real
    /// check-in's.
    static let natsReplyWindow = 30.0

    /// This plan with at least ``natsReplyWindow`` to reply, the window longer by as much, so
    /// the silences fall due as long after their start as before.
    var forNATS: LoadPlan {
        var plan = self
        let longer = max(0, Self.natsReplyWindow - thresholds.noReply)
        plan.thresholds.noReply += longer
        plan.window += longer
        return plan
    }

    /// A unique US number per (walker, contact), so SMS requests count per escalation and recipient.
    static func phone(walker: Int, contact: Int, contacts: Int) -> (dialled: String, normalised: String) {
        let local = String(format: "%07d", walker * contacts + contact)
        return ("512-\(local.prefix(3))-\(local.suffix(4))", "+1512\(local)")
    }
}
