import Foundation
import Hummingbird

/// An `application/x-www-form-urlencoded` body (a page's button, Twilio's webhooks), read up to a
/// limit and decoded into its pairs in order; Twilio's signature covers every pair as sent.
enum FormBody {
    static func read(_ request: Request, limit: Int) async throws -> [(name: String, value: String)] {
        let type = request.headers[.contentType]?.split(separator: ";").first?
            .trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/x-www-form-urlencoded" else { throw APIError.unsupportedMediaType }
        let buffer = try await request.body.collect(upTo: limit)
        guard let text = buffer.getString(at: buffer.readerIndex, length: buffer.readableBytes) else {
            throw APIError.invalidUTF8
        }
        guard let pairs = decode(text) else { throw APIError.malformedForm }
        return pairs
    }

    /// Nil when a name or value is not valid percent-encoding of UTF-8.
    static func decode(_ text: String) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        for part in text.split(separator: "&", omittingEmptySubsequences: true) {
            let halves = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = unescape(halves[0]), let value = unescape(halves.count > 1 ? halves[1] : "") else {
                return nil
            }
            pairs.append((name, value))
        }
        return pairs
    }

    private static func unescape(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}

extension [(name: String, value: String)] {
    /// The first value of `name`.
    subscript(form name: String) -> String? { first { $0.name == name }?.value }
}
