import Foundation
import HTTPTypes
import Hummingbird
import SafeWalkCore

/// The SMS gateway's webhooks, in Twilio's form format: an inbound text (`POST
/// /v1/gateway/sms/inbound`) and a delivery report (`POST /v1/gateway/sms/status?ref=…`). Both
/// are public addresses, so nothing is read into an effect before `X-Twilio-Signature` proves
/// Twilio sent it. Without `SAFEWALK_TWILIO_AUTH_TOKEN` both are 404.
extension WebHandlers {
    static let helpText = "SafeWalk: to tell them you are on it, reply OK (or OK and the 4-digit code from our text)."
    /// The notifier could not tell which alert an "OK" without a code answers (several notifier
    /// instances, each with its own walkers' alerts): the code in the alert text says.
    static let codeNeededText =
        "SafeWalk: please reply OK and the 4-digit code from the end of the alert you got, so we know whose alert you are answering."

    /// The form, once its signature is Twilio's for `SAFEWALK_PUBLIC_URL` + `pathAndQuery`.
    func signedForm(_ request: Request, pathAndQuery: String) async throws -> (
        LivePages, [(name: String, value: String)]
    ) {
        guard let live, let authToken = settings.live.twilioAuthToken, let base = settings.live.publicURL else {
            throw APIError.notFound
        }
        let form = try await FormBody.read(request, limit: settings.bodyLimit)
        guard let signature = request.headers[HTTPField.Name("X-Twilio-Signature")!],
            TwilioSignature.isValid(signature, authToken: authToken, url: base + pathAndQuery, parameters: form)
        else {
            accounts.logger.warning(
                "gateway callback with a bad signature refused", metadata: ["path": "\(request.uri.path)"])
            throw APIError.badSignature
        }
        return (live, form)
    }

    /// A reply from a contact: "OK" (with the incident's code, perhaps) acknowledges; anything else
    /// is answered with how to. Every text gets an answer.
    func smsInbound(_ request: Request) async throws -> Response {
        let (live, form) = try await signedForm(request, pathAndQuery: WebRoute.smsInbound.path)
        guard let from = form[form: "From"], !from.isEmpty, from.utf8.count <= 32, let body = form[form: "Body"] else {
            HTTPRejections.count("malformedForm")
            return HTMLResponse.twiML(Self.helpText)
        }
        guard let reply = SMSAcknowledgement(reply: body) else { return HTMLResponse.twiML(Self.helpText) }
        let sid = form[form: "MessageSid"] ?? ""
        let id = MessageKey.isValid(sid) ? sid : UUID().uuidString.lowercased()
        let asked = AcknowledgementRequest(
            id: id, via: .sms, phone: from, code: reply.code, at: Date().timeIntervalSince1970)
        do {
            let result = try await live.acknowledge(asked)
            if result.ok, let walker = result.walker {
                return HTMLResponse.twiML("Thank you. \(walker) knows you're on it.")
            }
            if result.error == .closed, let walker = result.walker {
                return HTMLResponse.twiML("Thank you. \(walker) is already safe.")
            }
            if result.error == .codeNeeded { return HTMLResponse.twiML(Self.codeNeededText) }
            return HTMLResponse.twiML("No open SafeWalk alert matches your reply.")
        } catch {
            accounts.logger.error("SMS acknowledgement not answered", metadata: ["error": "\(error)"])
            return HTMLResponse.twiML("SafeWalk could not pass your reply on just now. Please call them directly.")
        }
    }

    /// A delivery report on one text the notifier sent, named by the `ref` it put in the URL.
    func smsStatus(_ request: Request) async throws -> Response {
        let query = request.uri.query.map { "?" + $0 } ?? ""
        let (live, form) = try await signedForm(request, pathAndQuery: WebRoute.smsStatus.path + query)
        guard let ref = request.uri.queryParameters.get("ref"), Self.isReference(ref) else {
            throw APIError.malformedForm
        }
        guard let status = form[form: "MessageStatus"]?.lowercased(), (1...32).contains(status.utf8.count),
            status.utf8.allSatisfy({ (0x61...0x7a).contains($0) || $0 == 0x2d || $0 == 0x5f })
        else { throw APIError.malformedForm }
        let code = form[form: "ErrorCode"].flatMap { $0.isEmpty ? nil : $0 }
        if let code, code.utf8.count > 16 || !code.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            throw APIError.malformedForm
        }
        try await live.report(
            GatewayReceipt(ref: ref, status: status, errorCode: code, at: Date().timeIntervalSince1970))
        return Response(status: .noContent)
    }

    /// The notifier's references: 1 to 128 characters of `[A-Za-z0-9_-]`.
    static func isReference(_ text: String) -> Bool {
        (1...128).contains(text.utf8.count)
            && text.utf8.allSatisfy {
                (0x30...0x39).contains($0) || (0x41...0x5a).contains($0) || (0x61...0x7a).contains($0) || $0 == 0x2d
                    || $0 == 0x5f
            }
    }

    /// `/static/…`: web's own script and style, and libjs-leaflet; gzipped when the client takes it
    /// and Debian shipped a `.gz`.
    func staticFile(_ request: Request, _ context: WebRequestContext) throws -> Response {
        let name = context.parameters.getCatchAll().joined(separator: "/")
        guard let file = files.files[name] else { throw APIError.notFound }
        let gzip = request.headers[.acceptEncoding]?.contains("gzip") == true
        var response = Response(
            status: .ok, headers: [.contentType: file.type],
            body: .init(byteBuffer: ByteBuffer(bytes: gzip ? file.gzipped ?? file.bytes : file.bytes)))
        if gzip && file.gzipped != nil { response.headers[.contentEncoding] = "gzip" }
        response.headers[.vary] = "Accept-Encoding"
        response.headers[.cacheControl] = StaticFiles.cacheControl
        return response
    }
}
