/// `{w}/desk` (`web` → the walker's device and app): someone of the monitoring desk looked at the
/// walker's alert. Privacy by construction: the desk sees a walker's position only during an
/// incident, and the walker learns who looked. For a duress incident `web` holds the notice until
/// the incident is closed for the services, so the phone never shows an alarm the walker seemed
/// to cancel (``DeviceDisclosure``).
public struct DeskNotice: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    /// Stable per view (a repeat of the same notice carries the same id).
    public var id: String
    /// The operator's account name.
    public var `operator`: String
    /// The desk's name as people read it ("the campus desk").
    public var desk: String
    public var incident: String
    /// When the operator looked.
    public var at: EpochSeconds
    /// "{operator} of the campus desk viewed your alert at {time}".
    public var text: String

    public init(id: String, operator: String, desk: String, incident: String, at: EpochSeconds, text: String) {
        self.id = id
        self.operator = `operator`
        self.desk = desk
        self.incident = incident
        self.at = at
        self.text = text
    }
}

/// The monitoring desk's name as walkers and contacts read it, shared by `web` and the notifier
/// (`SAFEWALK_DESK_NAME`).
public enum DeskName {
    public static let environmentKey = "SAFEWALK_DESK_NAME"
    public static let `default` = "the campus desk"

    /// `text` when it is a usable name (1 to 60 characters, no control characters), else the default.
    public static func from(_ text: String?) -> String {
        guard let text, (1...60).contains(text.count),
            !text.unicodeScalars.contains(where: {
                $0.properties.generalCategory == .control
            })
        else { return `default` }
        return text
    }
}
