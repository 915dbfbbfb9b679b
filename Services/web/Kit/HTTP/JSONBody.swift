import Foundation
import Hummingbird
import NIOCore

/// Reads a request's body as JSON, refusing before any parsing what is too large (413), not
/// declared `application/json` (415) or not UTF-8 (400).
public enum JSONBody {
    /// The largest body any route accepts: a sign-up is well under 1 KiB.
    public static let defaultLimit = 16 * 1024

    public static func read(_ request: Request, limit: Int) async throws(APIError) -> JSONFields {
        try JSONFields(bytes: try await bytes(of: request, limit: limit).readableBytesView)
    }

    /// The body of a request declared `application/json`, at most `limit` bytes, not yet parsed:
    /// what every JSON route reads first, whatever shape it then expects.
    static func bytes(of request: Request, limit: Int) async throws(APIError) -> ByteBuffer {
        try checkContentType(request.headers[.contentType])
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw .tooLarge(limit: limit)
        }
        do {
            return try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw .tooLarge(limit: limit)
        } catch {
            throw .malformedJSON  // the connection ended mid-body
        }
    }

    /// `application/json`, optionally with `charset=utf-8`; anything else is refused.
    static func checkContentType(_ value: String?) throws(APIError) {
        guard let value else { throw .unsupportedMediaType }
        let parts = value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard parts.first == "application/json" else { throw .unsupportedMediaType }
        for parameter in parts.dropFirst() where parameter.hasPrefix("charset=") {
            let charset = parameter.dropFirst("charset=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            guard charset == "utf-8" || charset == "utf8" else { throw .unsupportedMediaType }
        }
    }
}

/// The top-level members of a JSON object, each a string or something else. Field errors name
/// the field: a missing one is `missing`, one of another type `wrongType`.
public struct JSONFields: Sendable {
    enum Value: Decodable, Sendable {
        case string(String)
        case bool(Bool)
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .string(text)
            } else {
                self = (try? container.decode(Bool.self)).map(Value.bool) ?? .other
            }
        }
    }

    let values: [String: Value]

    public init(bytes: some Collection<UInt8>) throws(APIError) {
        guard String(validating: bytes, as: UTF8.self) != nil else { throw .invalidUTF8 }
        do {
            values = try JSONDecoder().decode([String: Value].self, from: Data(bytes))
        } catch {
            throw .malformedJSON
        }
    }

    /// The string at `field`'s key.
    public func string(_ field: FieldError.Field) throws(APIError) -> String {
        switch values[field.rawValue] {
        case .string(let value): value
        case .bool, .other: throw .field(FieldError(field, .wrongType))
        case nil: throw .field(FieldError(field, .missing))
        }
    }

    /// The string at `field`'s key, or nil when the key is absent or null.
    public func optionalString(_ field: FieldError.Field) throws(APIError) -> String? {
        values[field.rawValue] == nil ? nil : try string(field)
    }

    /// The boolean at `field`'s key; false when absent.
    public func flag(_ field: FieldError.Field) throws(APIError) -> Bool {
        switch values[field.rawValue] {
        case .bool(let value): value
        case nil: false
        case .string, .other: throw .field(FieldError(field, .wrongType))
        }
    }
}
