/// Topic levels that are not walker ids (or device names), for the topics where the broker's
/// ACL lets them through: `{w}/position` (written by location-ingest), `{w}/prompt` and
/// `{w}/escalation` (watchdog), `{w}/contacts` (contacts-store) take any walker level; a walker
/// may publish `owntracks/{itself}/{any device}`. Every other input topic is `pattern`-bound to
/// the publisher's own username, which `scripts/add-user.sh` only allows as a valid id.
/// `+`, `#`, NUL, control characters and invalid UTF-8 cannot be published at all (libmosquitto's
/// topic check refuses them before they leave the client), so they are not here.
public enum HostileTopics {
    public static let levels: [String] = [
        "", ".", "..", "a b", " ", "wälker", "🚨", "Ω", "%u", "$SYS", "_rejected", "_service",
        String(repeating: "a", count: 65), String(repeating: "w", count: 1_000), "\u{202E}evil", "a\u{200B}b",
        "a.b", "a:b", "a@b", "a\\b", "'", "\"", "<script>", "-" + String(repeating: "é", count: 40),
    ]

    /// The kinds whose walker level a service user can set freely.
    public static let walkerLevelKinds: [InputKind] = [.position, .prompt, .escalation, .contacts]
}
