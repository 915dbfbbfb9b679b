import SafeWalkCore

/// Actions and their answers as `simulate` and `watch` print them. A PIN is never shown, only
/// that one was given: these lines land in terminals, scrollback and screen shares, and a
/// duress PIN seen there would give the walker away.
public enum ActionText {
    /// `startWalk to Library, 12 min`, `hold (red) "Walking to my car"`, `imSafe with PIN`.
    public static func describe(_ action: Action) -> String {
        var text: String
        switch action.kind {
        case .startWalk(let destination, let minutes):
            text = "startWalk to \(destination), \(SimulationText.number(minutes)) min"
        case .panic(let level), .hold(let level):
            text = "\(action.kind.name) (\(level.rawValue))"
        default:
            text = action.kind.name
        }
        if let note = action.note { text += " \"\(note)\"" }
        if action.pin != nil { text += " with PIN" }
        return text
    }

    /// `ok`, `ok (warnings: missing_version)`, `wrong_pin: That PIN is not right. …`.
    public static func outcome(_ result: ActionResult) -> String {
        if result.ok {
            let warnings = result.warnings ?? []
            return "ok" + (warnings.isEmpty ? "" : " (warnings: \(warnings.joined(separator: ", ")))")
        }
        guard let error = result.error else { return "error" }
        return "error \(error.code): \(error.message)"
    }

    /// `reply refused: empty_text (id a1)`.
    public static func refusal(_ refusal: InputRefusal) -> String {
        "\(refusal.kind.rawValue) refused: \(refusal.reason)" + (refusal.id.map { " (id \(shortID($0)))" } ?? "")
    }

    /// The first 8 characters of a long id: enough to tell a device's UUIDs apart on screen.
    public static func shortID(_ id: String) -> String {
        id.count > 12 ? String(id.prefix(8)) + "…" : id
    }
}
