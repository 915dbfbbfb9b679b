import Foundation
import SafeWalkCore
import SafeWalkMQTT

/// Validates what the ladder reads from the broker (`_incidents/+`, `_acks/request`,
/// `_receipts/gateway`): hostile until proven otherwise, and pure, so every refusal is tested.
public enum LadderIntake {
    public static let maxBytes = 4 * 1024

    /// Why an input was refused; `id` when an acknowledgement's id could still be read, so that
    /// its sender gets a `refused` answer instead of silence.
    public struct Refusal: Error, Sendable, Hashable {
        public var code: String
        public var kind: Topic.Kind
        public var walker: WalkerID?
        public var id: String?
    }

    /// An incident state; nil for the empty retained message of an erasure.
    public static func incident(_ message: MQTTMessage, prefix: String) -> Result<IncidentState?, Refusal> {
        guard let topic = Topic.parse(message.topic, prefix: prefix), topic.kind == .incident,
            let walker = topic.walker
        else { return .failure(Refusal(code: "unexpected_topic", kind: .incident)) }
        if message.payload.isEmpty { return .success(nil) }
        do {
            let state = try SafeWalkJSON.decode(IncidentState.self, from: message.payload, maxBytes: maxBytes)
            guard state.walker == walker else {
                return .failure(Refusal(code: "walker_mismatch", kind: .incident, walker: walker))
            }
            guard NotifierIntake.isValidID(state.incident) else {
                return .failure(Refusal(code: "invalid_id", kind: .incident, walker: walker))
            }
            return .success(state)
        } catch {
            return .failure(Refusal(code: error.code, kind: .incident, walker: walker))
        }
    }

    public static func acknowledgement(_ message: MQTTMessage) -> Result<AcknowledgementRequest, Refusal> {
        let kind = Topic.Kind.acknowledgementRequest
        guard message.payload.count <= maxBytes else { return .failure(Refusal(code: "too_large", kind: kind)) }
        let request: AcknowledgementRequest
        do {
            request = try SafeWalkJSON.decode(AcknowledgementRequest.self, from: message.payload, maxBytes: maxBytes)
        } catch {
            return .failure(Refusal(code: error.code, kind: kind, id: readableID(message.payload)))
        }
        guard NotifierIntake.isValidID(request.id) else { return .failure(Refusal(code: "invalid_id", kind: kind)) }
        let refused = Refusal(code: "invalid_acknowledgement", kind: kind, id: request.id)
        switch request.via {
        case .page:
            guard let page = request.page, isHexDigest(page) else { return .failure(refused) }
        case .sms:
            guard let phone = request.phone, phone.utf8.count <= 32 else { return .failure(refused) }
            if let code = request.code, code.utf8.count != 4 || !code.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
                return .failure(refused)
            }
        case .app, .desk:
            // Both are account names (the decoder checked their characters): the SafeWalk user
            // or the desk's operator, and the walker. Without either there is nobody on it, or no
            // incident to be on.
            guard request.user != nil, request.walker != nil else { return .failure(refused) }
        }
        return .success(request)
    }

    public static func receipt(_ message: MQTTMessage) -> Result<GatewayReceipt, Refusal> {
        let kind = Topic.Kind.gatewayReceipt
        do {
            let receipt = try SafeWalkJSON.decode(GatewayReceipt.self, from: message.payload, maxBytes: maxBytes)
            let lower = receipt.status.utf8.allSatisfy { (0x61...0x7a).contains($0) }
            guard isHex(receipt.ref, maxLength: 64), lower, (1...32).contains(receipt.status.utf8.count) else {
                return .failure(Refusal(code: "invalid_receipt", kind: kind))
            }
            return .success(receipt)
        } catch {
            return .failure(Refusal(code: error.code, kind: kind))
        }
    }

    /// The `id` of a request that did not decode, when it is a usable id.
    static func readableID(_ payload: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any],
            let id = object["id"] as? String, NotifierIntake.isValidID(id)
        else { return nil }
        return id
    }

    static func isHexDigest(_ text: String) -> Bool { text.utf8.count == 64 && isHex(text, maxLength: 64) }

    static func isHex(_ text: String, maxLength: Int) -> Bool {
        (1...maxLength).contains(text.utf8.count)
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
