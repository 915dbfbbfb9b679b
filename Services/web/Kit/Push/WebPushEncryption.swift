import Crypto
import Foundation

/// Message encryption for Web Push (RFC 8291) in the `aes128gcm` content coding (RFC 8188): one
/// record, so a push is at most one record of ``recordSize`` bytes.
///
/// Every primitive is swift-crypto's: ECDH on P-256, HKDF-SHA256, AES-128-GCM. The sender's key
/// pair and the salt are fresh for every message; tests pass the RFC's to reproduce Appendix A.
public enum WebPushEncryption {
    /// The record size written in the header: the most any push service must accept (RFC 8030 §7.2
    /// lets one refuse larger bodies).
    public static let recordSize: UInt32 = 4096
    /// salt (16) + rs (4) + idlen (1) + the sender's public key (65).
    public static let headerSize = 86
    /// The largest plaintext one record holds: the record, less the padding delimiter and the
    /// 16-byte tag, less the header that shares the 4096 bytes a push service accepts.
    public static let maxPlaintext = Int(recordSize) - headerSize - 1 - 16

    public enum Failure: Error, Equatable, Sendable {
        case tooLarge(Int)
        case badKey
    }

    /// The body to POST to the push service: header and the one encrypted record.
    /// - Parameters:
    ///   - receiver: the subscription's `p256dh` (uncompressed point, 65 bytes).
    ///   - authSecret: the subscription's `auth` (16 bytes).
    public static func encrypt(
        _ plaintext: Data, to receiver: P256.KeyAgreement.PublicKey, authSecret: Data,
        sender: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey(),
        salt: Data = Data(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
    ) throws(Failure) -> Data {
        guard plaintext.count <= maxPlaintext else { throw .tooLarge(plaintext.count) }
        let senderPublic = sender.publicKey.x963Representation
        let keys: (SymmetricKey, AES.GCM.Nonce)
        do {
            keys = try contentKeys(
                shared: try sender.sharedSecretFromKeyAgreement(with: receiver), receiver: receiver.x963Representation,
                sender: senderPublic, authSecret: authSecret, salt: salt)
        } catch {
            throw .badKey
        }
        // The last (and only) record ends with the delimiter 0x02 and no padding.
        let sealed: AES.GCM.SealedBox
        do { sealed = try AES.GCM.seal(plaintext + [0x02], using: keys.0, nonce: keys.1) } catch { throw .badKey }
        var body = Data(salt)
        withUnsafeBytes(of: recordSize.bigEndian) { body.append(contentsOf: $0) }
        body.append(UInt8(senderPublic.count))
        body.append(senderPublic)
        body.append(sealed.ciphertext)
        body.append(sealed.tag)
        return body
    }

    /// The content-encryption key and nonce (RFC 8291 §3.3-3.4, RFC 8188 §2.2-2.3).
    static func contentKeys(
        shared: SharedSecret, receiver: Data, sender: Data, authSecret: Data, salt: Data
    ) throws -> (SymmetricKey, AES.GCM.Nonce) {
        // PRK_key = HMAC(auth_secret, ecdh_secret); IKM = HMAC(PRK_key, key_info || 0x01)
        let keyInfo = Data("WebPush: info".utf8) + [0x00] + receiver + sender
        let ikm = shared.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: authSecret, sharedInfo: keyInfo, outputByteCount: 32)
        let cek = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: aes128gcm".utf8) + [0x00],
            outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: nonce".utf8) + [0x00],
            outputByteCount: 12)
        return (cek, try AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }))
    }
}
