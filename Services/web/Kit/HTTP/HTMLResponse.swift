import HTTPTypes
import Hummingbird
import Metrics
import NIOCore

/// HTML answers (the live pages and their errors) and TwiML answers (the SMS gateway), with the
/// headers a page whose URL holds a secret needs: no referrer (the token must not leak to the tile
/// server or a linked map), never cached, never indexed, and a Content-Security-Policy that allows
/// web's own files and the tile host only.
enum HTMLResponse {
    static func make(_ html: String, status: HTTPResponse.Status = .ok, tiles: String? = nil) -> Response {
        var response = Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
        protect(&response, tiles: tiles)
        return response
    }

    /// An error page, counted like every other refusal.
    static func refusal(_ status: HTTPResponse.Status, reason: String, title: String, text: String) -> Response {
        HTTPRejections.count(reason)
        return make(PageHTML.message(title, text), status: status)
    }

    static func protect(_ response: inout Response, tiles: String?) {
        let images = (["'self'", "data:"] + [tiles.flatMap(TileSource.origin)].compactMap { $0 }).joined(separator: " ")
        response.headers[.contentSecurityPolicy] =
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src \(images); connect-src 'self'; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[HTTPField.Name("X-Robots-Tag")!] = "noindex, nofollow"
        response.headers[.cacheControl] = "no-store"
        response.headers[.xContentTypeOptions] = "nosniff"
    }

    /// `<Response><Message>…</Message></Response>`: what Twilio texts back to the sender.
    static func twiML(_ message: String) -> Response {
        let xml =
            #"<?xml version="1.0" encoding="UTF-8"?><Response><Message>"# + PageHTML.escape(message)
            + "</Message></Response>"
        var response = Response(
            status: .ok, headers: [.contentType: "application/xml; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: xml)))
        response.headers[.cacheControl] = "no-store"
        return response
    }
}

/// `safewalk_http_rejections_total{service="web",reason}` for refusals answered without an
/// ``APIError`` (HTML pages, TwiML).
enum HTTPRejections {
    static func count(_ reason: String) {
        Counter(label: "safewalk_http_rejections_total", dimensions: [("service", "web"), ("reason", reason)])
            .increment()
    }
}
