import SafeWalkService

/// The `Idempotency-Key` header of one delivery. It is the same for every attempt at one ledger
/// row (escalation id, channel, target), across retries and restarts, and differs for every other
/// row.
///
/// Why: a gateway that took a text but answered after `SAFEWALK_SMS_TIMEOUT` looks exactly like one
/// that never got it, and the retry would text the contact a second time. A gateway that honours
/// the header (the IETF draft `draft-ietf-httpapi-idempotency-key-header`; Telnyx's and Sinch's
/// APIs document it) answers a repeat with its first answer instead of sending again. One that
/// does not (Twilio's Messages API does not document it) ignores it, and that window stays as
/// docs/services/notifier.md describes.
///
/// The key is a SHA-256 digest, so it names no number; 64 lowercase hex digits fit the key rules
/// gateways publish (Telnyx: 1 to 255 letters, digits, `_`, `:` or `-`).
public enum DeliveryIdempotencyKey {
    public static let header = "Idempotency-Key"

    public static func key(escalationId: String, channel: String, target: String) -> String {
        // NUL never occurs in an id, a channel name or a target key, so the fields cannot run together.
        TokenText.sha256Hex("safewalk-delivery\u{0}\(escalationId)\u{0}\(channel)\u{0}\(target)")
    }
}
