import SafeWalkCore

/// The one rule for when the monitoring desk may be served a walker's position: only while the
/// walker has an incident open for the services (`_incidents/{w}`, so a duress incident the device
/// saw cancelled is open for the desk). Applied where positions leave web (the board's events,
/// the incident's position stream, the walker's position route), never in the page.
public enum DeskPositionRule {
    public static func mayServe(_ incident: IncidentState?) -> Bool {
        incident?.state == .open
    }
}
