import Hummingbird
import NIOCore
import SafeWalkCore

/// JSON responses, with the headers every answer of this API carries: never cached (some carry
/// passwords or tokens), never sniffed as another type.
enum JSONResponse {
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        var response = Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: try SafeWalkJSON.encode(value))))
        secure(&response)
        return response
    }

    static func empty(status: HTTPResponse.Status = .noContent) -> Response {
        var response = Response(status: status)
        secure(&response)
        return response
    }

    static func secure(_ response: inout Response) {
        response.headers[.cacheControl] = "no-store"
        response.headers[.xContentTypeOptions] = "nosniff"
    }

    /// `{"error":{"field":"email","reason":"taken","message":"…"}}`; `field` only for field errors.
    static func error(_ error: APIError) -> Response {
        let body = ErrorBody(error: .init(field: error.field, reason: error.reason, message: error.message))
        var response =
            (try? make(body, status: error.status))
            ?? Response(status: .internalServerError)
        if let seconds = error.retryAfter { response.headers[.retryAfter] = String(seconds) }
        return response
    }
}

/// The body of every refusal.
public struct ErrorBody: Codable, Hashable, Sendable {
    public struct Detail: Codable, Hashable, Sendable {
        public var field: FieldError.Field?
        public var reason: String
        public var message: String
    }

    public var error: Detail
}
