import Crypto
import Foundation

/// What a push service and a browser check and do with a push (RFC 8292 §2-3, RFC 8291 §3,
/// RFC 8188 §2), written here from the RFCs for ``FakePushService``.
enum FakePushCrypto {
    struct Refusal: Error {
        var status: Int
        var reason: String
    }

    static func accept(
        headers: [String: String], body: Data, subscription: FakePushService.Subscription, origin: String, now: Date
    ) -> Result<FakePushService.Message, Refusal> {
        guard let ttl = headers["ttl"], Int(ttl).map({ $0 >= 0 }) == true else {
            return .failure(Refusal(status: 400, reason: "missingTTL"))
        }
        if let urgency = headers["urgency"], !["very-low", "low", "normal", "high"].contains(urgency) {
            return .failure(Refusal(status: 400, reason: "badUrgency"))
        }
        guard headers["content-encoding"] == "aes128gcm" else {
            return .failure(Refusal(status: 415, reason: "notAes128gcm"))
        }
        let claims: [String: Any]
        switch vapidClaims(headers["authorization"], expectedKey: subscription.applicationServerKey) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let found): claims = found
        }
        guard claims["aud"] as? String == origin else { return .failure(Refusal(status: 403, reason: "wrongAudience")) }
        guard let exp = claims["exp"] as? Int, exp > Int(now.timeIntervalSince1970),
            exp <= Int(now.timeIntervalSince1970) + 24 * 3600
        else { return .failure(Refusal(status: 403, reason: "badExpiry")) }
        guard let sub = claims["sub"] as? String, sub.hasPrefix("mailto:") || sub.hasPrefix("https:") else {
            return .failure(Refusal(status: 403, reason: "badSubject"))
        }
        guard body.count <= 4096 else { return .failure(Refusal(status: 413, reason: "tooLarge")) }
        guard let plaintext = decrypt(body, subscription: subscription) else {
            return .failure(Refusal(status: 400, reason: "undecryptable"))
        }
        return .success(
            FakePushService.Message(
                subscription: subscription.id, headers: headers, plaintext: plaintext, audience: origin, subject: sub,
                expires: exp))
    }

    /// `vapid t=<JWT>, k=<key>`: the JWT's ES256 signature must verify with `k`, and `k` must be
    /// the subscription's application server key.
    static func vapidClaims(_ header: String?, expectedKey: String) -> Result<[String: Any], Refusal> {
        guard let header, header.hasPrefix("vapid ") else { return .failure(Refusal(status: 401, reason: "noVAPID")) }
        var parameters: [String: String] = [:]
        for part in header.dropFirst("vapid ".count).split(separator: ",") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2 { parameters[String(pair[0])] = String(pair[1]) }
        }
        guard let token = parameters["t"], let key = parameters["k"] else {
            return .failure(Refusal(status: 401, reason: "noVAPID"))
        }
        guard key == expectedKey else { return .failure(Refusal(status: 403, reason: "wrongKey")) }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let keyBytes = data(key),
            let publicKey = try? P256.Signing.PublicKey(x963Representation: keyBytes),
            let signatureBytes = data(parts[2]),
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8))
        else { return .failure(Refusal(status: 401, reason: "badSignature")) }
        guard
            let headerJSON = data(parts[0]).flatMap({ try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }),
            headerJSON["alg"] as? String == "ES256",
            let claims = data(parts[1]).flatMap({ try? JSONSerialization.jsonObject(with: $0) as? [String: Any] })
        else { return .failure(Refusal(status: 401, reason: "badToken")) }
        return .success(claims)
    }

    /// The browser's side: one aes128gcm record with the sender's key in the header.
    static func decrypt(_ body: Data, subscription: FakePushService.Subscription) -> Data? {
        let bytes = [UInt8](body)
        guard bytes.count > 21 else { return nil }
        let salt = Data(bytes[0..<16])
        let idlen = Int(bytes[20])
        guard bytes.count > 21 + idlen + 16,
            let sender = try? P256.KeyAgreement.PublicKey(x963Representation: Data(bytes[21..<(21 + idlen)])),
            let shared = try? subscription.privateKey.sharedSecretFromKeyAgreement(with: sender)
        else { return nil }
        let receiverPublic = subscription.privateKey.publicKey.x963Representation
        let prk = HMAC<SHA256>.authenticationCode(
            for: shared.withUnsafeBytes { Data($0) }, using: SymmetricKey(data: subscription.authSecret))
        let info = Data("WebPush: info".utf8) + [0] + receiverPublic + sender.x963Representation + [1]
        let ikm = Data(HMAC<SHA256>.authenticationCode(for: info, using: SymmetricKey(data: Data(prk))))
        let prk2 = Data(HMAC<SHA256>.authenticationCode(for: ikm, using: SymmetricKey(data: salt)))
        func expand(_ label: String, _ length: Int) -> Data {
            Data(
                HMAC<SHA256>.authenticationCode(
                    for: Data("Content-Encoding: \(label)".utf8) + [0, 1], using: SymmetricKey(data: prk2))
            ).prefix(length)
        }
        guard let nonce = try? AES.GCM.Nonce(data: expand("nonce", 12)),
            let box = try? AES.GCM.SealedBox(
                nonce: nonce, ciphertext: Data(bytes[(21 + idlen)..<(bytes.count - 16)]),
                tag: Data(bytes[(bytes.count - 16)...])),
            let record = try? AES.GCM.open(box, using: SymmetricKey(data: expand("aes128gcm", 16))),
            let delimiter = record.lastIndex(where: { $0 != 0 }), record[delimiter] == 2
        else { return nil }
        return record[record.startIndex..<delimiter]
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func data(_ text: String) -> Data? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard)
    }
}
