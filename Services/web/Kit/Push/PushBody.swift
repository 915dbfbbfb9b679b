import Foundation
import Hummingbird
import NIOCore

/// The body of `PUT /v1/app/push` (`PushSubscription.toJSON()`: `{"endpoint", "keys": {"p256dh",
/// "auth"}}`, other members ignored) and of `DELETE /v1/app/push` (`{"endpoint"}`), with
/// ``JSONBody``'s checks first (415, 413, invalid UTF-8, not one JSON object).
enum PushBody {
    /// A subscription is about 250 bytes.
    static let limit = 4_096

    static func read(_ request: Request) async throws(APIError) -> [String: Any] {
        let bytes = try await JSONBody.bytes(of: request, limit: limit).readableBytesView
        guard String(validating: bytes, as: UTF8.self) != nil else { throw .invalidUTF8 }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw .malformedJSON
        }
        return object
    }

    static func string(_ object: [String: Any]?, _ key: String, _ field: FieldError.Field) throws(APIError) -> String {
        guard let value = object?[key], !(value is NSNull) else { throw .field(FieldError(field, .missing)) }
        guard let text = value as? String else { throw .field(FieldError(field, .wrongType)) }
        return text
    }

    static func subscription(_ object: [String: Any], settings: PushSettings) throws(APIError) -> PushSubscription {
        let endpoint = try string(object, "endpoint", .endpoint)
        let keys = object["keys"] as? [String: Any]
        let p256dh = try string(keys, "p256dh", .p256dh)
        let auth = try string(keys, "auth", .auth)
        do throws(PushSubscription.Problem) {
            return try PushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth, settings: settings)
        } catch {
            switch error {
            case .endpoint(let reason): throw .field(FieldError(.endpoint, Self.reason(reason)))
            case .p256dh: throw .field(FieldError(.p256dh, .invalid))
            case .auth: throw .field(FieldError(.auth, .invalid))
            }
        }
    }

    static func reason(_ code: String) -> FieldError.Reason {
        switch code {
        case "empty": .empty
        case "tooLong": .tooLong
        case "invalidCharacters": .invalidCharacters
        case "notAllowed": .notAllowed
        default: .invalid
        }
    }
}
