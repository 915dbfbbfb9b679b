import Foundation
import SafeWalkCore

/// Validates a `_desk/close` request. Only `web` can publish there (mosquitto/acl), but `web` faces
/// the internet, so the request is hostile until proven otherwise, like every other input: bounded
/// size, `"v": 1`, every field in range. The walker comes from the payload (the topic names no
/// walker); a valid ``WalkerID`` is all that is needed, since a close of a walker with no open
/// incident changes nothing.
public enum DeskCloseIntake {
    /// Largest request read: the ids, the operator, and a note of at most 1,000 bytes (escaped,
    /// up to six bytes a character), with room to spare.
    public static let maxBytes = 8 * 1024

    /// The refusal, with the request's `id` when it is readable, so `web` gets a `refused`
    /// answer instead of silence.
    public static func read(_ payload: Data) -> Result<DeskClose, InputRejection> {
        func refuse(_ code: String, id: String? = nil) -> Result<DeskClose, InputRejection> {
            .failure(InputRejection(code: code, topicKind: .deskClose, walker: nil, id: id))
        }
        // Too large is refused unread: not even its id is looked for.
        guard payload.count <= maxBytes else { return refuse("too_large") }
        let close: DeskClose
        do {
            close = try SafeWalkJSON.decode(DeskClose.self, from: payload, maxBytes: maxBytes)
        } catch {
            return refuse(error.code, id: readableID(payload))
        }
        guard isValidID(close.id) else { return refuse("invalid_id") }
        guard isValidID(close.incident) else { return refuse("invalid_incident", id: close.id) }
        guard isValidOperator(close.operator) else { return refuse("invalid_operator", id: close.id) }
        if let note = close.note, !DeskCloseRule.isUsableNote(note) { return refuse("invalid_note", id: close.id) }
        guard close.at.isFinite else { return refuse("non_finite", id: close.id) }
        return .success(close)
    }

    /// Ids (the request's, the incident's) are outbox keys and answers' fields.
    static func isValidID(_ id: String) -> Bool { MessageKey.isValid(id) }

    /// The operator's account name: it is logged, so bounded and free of control characters.
    static func isValidOperator(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 128
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// The `id` of a request that did not decode, when it is a usable id.
    static func readableID(_ payload: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any],
            let id = object["id"] as? String, isValidID(id)
        else { return nil }
        return id
    }
}
