import Crypto
import Foundation
import SafeWalkWebKit
import Testing

/// Web Push's crypto against the RFCs: RFC 8291's own worked example, and VAPID tokens that a
/// push service (here swift-crypto's verifier) accepts.
@Suite struct PushCryptoTests {
    /// RFC 8291 Appendix A, every input and the final message as the RFC prints them.
    enum RFC8291 {
        static let plaintext = "When I grow up, I want to be a watermelon"
        static let asPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
        static let uaPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
        static let uaPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
        static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
        static let auth = "BTBZMqHH6r4Tts7J_aSIgg"
        static let message =
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    }

    static func bytes(_ text: String) throws -> Data { try #require(PushBase64URL.decode(text)) }

    @Test func theRFC8291ExampleIsReproducedByteForByte() throws {
        let receiver = try P256.KeyAgreement.PublicKey(x963Representation: try Self.bytes(RFC8291.uaPublic))
        let body = try WebPushEncryption.encrypt(
            Data(RFC8291.plaintext.utf8), to: receiver, authSecret: try Self.bytes(RFC8291.auth),
            sender: try P256.KeyAgreement.PrivateKey(rawRepresentation: try Self.bytes(RFC8291.asPrivate)),
            salt: try Self.bytes(RFC8291.salt))
        #expect(PushBase64URL.encode(body) == RFC8291.message)
        // The receiver's half of the RFC's key pair is the one the example was encrypted for.
        let ua = try P256.KeyAgreement.PrivateKey(rawRepresentation: try Self.bytes(RFC8291.uaPrivate))
        #expect(ua.publicKey.x963Representation == receiver.x963Representation)
    }

    @Test func freshKeysAndSaltMakeEveryMessageDifferent() throws {
        let receiver = P256.KeyAgreement.PrivateKey().publicKey
        let auth = Data(repeating: 7, count: 16)
        let one = try WebPushEncryption.encrypt(Data("hi".utf8), to: receiver, authSecret: auth)
        let two = try WebPushEncryption.encrypt(Data("hi".utf8), to: receiver, authSecret: auth)
        #expect(one != two)
        #expect(one.count == WebPushEncryption.headerSize + 2 + 1 + 16)
        #expect(one[16..<20] == Data([0, 0, 0x10, 0]))  // rs = 4096
    }

    @Test func aPlaintextLargerThanOneRecordIsRefused() throws {
        let receiver = P256.KeyAgreement.PrivateKey().publicKey
        let auth = Data(repeating: 1, count: 16)
        let fits = Data(repeating: 0x41, count: WebPushEncryption.maxPlaintext)
        #expect(try WebPushEncryption.encrypt(fits, to: receiver, authSecret: auth).count == 4096)
        #expect(throws: WebPushEncryption.Failure.tooLarge(fits.count + 1)) {
            try WebPushEncryption.encrypt(fits + [0x41], to: receiver, authSecret: auth)
        }
    }

    @Test func theVAPIDTokenVerifiesWithItsPublicKeyAndNamesTheOrigin() throws {
        let vapid = VAPID(key: P256.Signing.PrivateKey(), subject: "mailto:ops@example.org")
        let now = Date(timeIntervalSince1970: 1_760_000_000)
        let header = try vapid.authorization(
            for: try #require(URL(string: "https://fcm.googleapis.com:443/fcm/send/abc?x=1")), now: now)
        let match = try #require(header.wholeMatch(of: /vapid t=([A-Za-z0-9_.-]+), k=([A-Za-z0-9_-]+)/))
        let parts = match.1.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        let key = try P256.Signing.PublicKey(x963Representation: try Self.bytes(String(match.2)))
        #expect(String(match.2) == vapid.publicKey)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try Self.bytes(parts[2]))
        #expect(key.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
        // A token altered after signing does not verify.
        #expect(!key.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])x".utf8)))

        let jwtHeader = try JSONSerialization.jsonObject(with: try Self.bytes(parts[0])) as? [String: String]
        #expect(jwtHeader == ["typ": "JWT", "alg": "ES256"])
        let claims = try #require(try JSONSerialization.jsonObject(with: try Self.bytes(parts[1])) as? [String: Any])
        #expect(claims["aud"] as? String == "https://fcm.googleapis.com:443")
        #expect(claims["sub"] as? String == "mailto:ops@example.org")
        let exp = try #require(claims["exp"] as? Int)
        #expect(exp > 1_760_000_000 && exp <= 1_760_000_000 + 24 * 3600)
    }

    @Test func theAudienceIsTheOriginAlone() throws {
        #expect(
            VAPID.audience(of: URL(string: "https://updates.push.services.mozilla.com/wpush/v2/gAAA")!)
                == "https://updates.push.services.mozilla.com")
        #expect(VAPID.audience(of: URL(string: "http://127.0.0.1:8123/push/x")!) == "http://127.0.0.1:8123")
    }

    @Test func aLifetimeBeyond24HoursIsCapped() {
        #expect(
            VAPID(key: P256.Signing.PrivateKey(), subject: "mailto:a@b.c", lifetime: 48 * 3600).lifetime == 24 * 3600)
    }
}
