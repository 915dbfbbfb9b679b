import Crypto
import Foundation
import _CryptoExtras

/// PBKDF2-HMAC-SHA512 from swift-crypto (`_CryptoExtras`), 210,000 rounds (OWASP's figure for
/// this hash, and the least swift-crypto's checked API accepts), a 16-byte random salt per hash,
/// a 64-byte key. One verification costs tens to hundreds of milliseconds of one core (measured in
/// docs/services/web.md), which is the point: it runs on ``PasswordWork``'s threads, never on the
/// cooperative pool.
public struct PasswordHasher: Sendable {
    public static let defaultRounds = 210_000
    public static let saltBytes = 16
    public static let keyBytes = 64

    /// New hashes use this many rounds; stored hashes keep their own (see ``needsRehash(_:)``).
    public let rounds: Int

    /// Fewer than ``defaultRounds`` only in tests, where a sign-up should not cost a fifth of a
    /// second; the service never lowers it (docs/services/web.md).
    public init(rounds: Int = PasswordHasher.defaultRounds) {
        self.rounds = max(1, rounds)
    }

    /// A new hash under a fresh random salt.
    public func hash(_ password: String) -> PasswordHash {
        let salt = SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }
        return PasswordHash(
            rounds: rounds, salt: salt, key: derive(password, salt: salt, rounds: rounds, count: Self.keyBytes))
    }

    /// Whether `password` is the one `stored` was made from. The keys are compared in constant
    /// time (`SymmetricKey`'s `==`), so the time taken says nothing about how much matched.
    public func verify(_ password: String, against stored: PasswordHash) -> Bool {
        let typed = derive(password, salt: stored.salt, rounds: stored.rounds, count: stored.key.count)
        guard !typed.isEmpty else { return false }
        return SymmetricKey(data: typed) == SymmetricKey(data: stored.key)
    }

    /// A hash made with fewer rounds than this hasher's: rehash it at the next good sign-in.
    public func needsRehash(_ stored: PasswordHash) -> Bool { stored.rounds < rounds }

    /// Passwords are hashed in Unicode NFC, so "é" typed as one or two code points is one password.
    private func derive(_ password: String, salt: [UInt8], rounds: Int, count: Int) -> [UInt8] {
        let bytes = Array(password.precomposedStringWithCanonicalMapping.utf8)
        // Valid sizes and a hash function swift-crypto knows cannot fail; an empty key would only
        // make the password wrong (``verify`` refuses it), which fails closed.
        let key = try? KDF.Insecure.PBKDF2.deriveKey(
            from: bytes, salt: salt, using: .sha512, outputByteCount: count, unsafeUncheckedRounds: rounds)
        return key?.withUnsafeBytes { Array($0) } ?? []
    }
}
