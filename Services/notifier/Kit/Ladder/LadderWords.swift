import SafeWalkCore

/// What an acknowledgement says: on the timeline (operators only), in the texts to everyone else
/// told, and on the walker's phone (only where ``DeviceDisclosure`` allows it; the caller asks).
/// Pure, so every sentence is tested.
public struct AcknowledgementWords: Hashable, Sendable {
    public var entry: String
    public var handling: String
    public var alert: DeviceAlert

    /// `name` is who the acknowledgement stands under: a recipient, a SafeWalk user, or the desk's
    /// name when an `operator` of the monitoring desk acknowledged. The operator is named on the
    /// timeline, which only `web` and operators read; contacts and the walker hear the desk.
    public static func of(name: String, operator: String? = nil, walker: String) -> AcknowledgementWords {
        guard let `operator` else {
            return AcknowledgementWords(
                entry: "\(name) is on it", handling: "\(name) is handling it (\(walker)).",
                alert: DeviceAlert(
                    title: "\(name) is on it", body: "\(name) is on it: they got your alert.", actions: []))
        }
        // "the campus desk" opens a sentence: capitalised there, as it is written in the middle.
        let desk = LadderWords.capitalised(name)
        return AcknowledgementWords(
            entry: "\(name) is on it (\(`operator`))", handling: "\(desk) is handling it (\(walker)).",
            alert: DeviceAlert(title: "\(desk) is on it", body: "\(desk) is on it: they got your alert.", actions: []))
    }
}

/// What the end of an incident says: on the timeline, in the all-clear to everyone told, and on
/// the walker's phone when the desk (not the walker) closed it.
public struct AllClearWords: Hashable, Sendable {
    public var entry: String
    public var text: String
    /// Nil when the walker closed the incident: their own action told them.
    public var alert: DeviceAlert?

    /// `closedBy` and `reason` as `_incidents/{w}` gave them; `at` is the close's clock time. The
    /// operator's note never reaches the notifier, so no words here can carry it.
    public static func of(
        walker: String, at: String, closedBy: IncidentState.Closer?, reason: DeskCloseReason?, desk: String
    ) -> AllClearWords {
        guard closedBy == .desk else {
            return AllClearWords(
                entry: "\(walker) is safe (at \(at))", text: "\(walker) is safe (at \(at)). Thank you.")
        }
        let opening = LadderWords.capitalised(desk)
        let why = reason.map { " (\($0.words))" } ?? ""
        let sentence = "\(opening) closed \(walker)'s alert\(why) at \(at)"
        return AllClearWords(
            entry: sentence, text: sentence + ".",
            alert: DeviceAlert(
                title: "\(opening) closed your alert",
                body: reason.map { "Reason: \($0.words)." } ?? "Your alert is closed.", actions: []))
    }
}

enum LadderWords {
    /// `text` with its first letter upper-cased, the rest as written ("the campus desk" → "The
    /// campus desk", "UT Police desk" unchanged).
    static func capitalised(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }
}
