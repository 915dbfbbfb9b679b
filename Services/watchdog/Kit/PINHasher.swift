import Crypto
import SafeWalkCore
import _CryptoExtras

/// Keeps PINs as salted PBKDF2-HMAC-SHA256 hashes (swift-crypto) and tells which PIN was typed.
///
/// Why these parameters: a PIN has 4 to 12 digits, so no work factor makes a stolen database safe
/// from an offline search (10,000 four-digit PINs × any cost is minutes), and the hash is worked
/// out on the event loop that serves every walker. The protection against guessing is online:
/// a few wrong PINs escalate red. So the work factor only has to stop the database from being a
/// plain list of PINs, and stays small: ``defaultRounds`` (measured in BENCHMARKS.md).
public struct PINHasher: Sendable {
    /// PBKDF2 iterations. swift-crypto's checked API asks for at least 210,000 (a password's
    /// cost); see the type's comment for why a PIN uses the unchecked one with fewer.
    public static let defaultRounds = 10_000
    public static let saltBytes = 16
    public static let hashBytes = 32

    public var rounds: Int

    public init(rounds: Int = PINHasher.defaultRounds) {
        self.rounds = rounds
    }

    public func hash(_ pin: PIN, salt: [UInt8]) -> [UInt8] {
        // PBKDF2 over a non-empty input with valid sizes cannot fail; an empty result would only
        // make every PIN wrong, which fails safe (escalates), never open.
        let key = try? KDF.Insecure.PBKDF2.deriveKey(
            from: pin.digits, salt: salt, using: .sha256, outputByteCount: Self.hashBytes,
            unsafeUncheckedRounds: rounds)
        return key?.withUnsafeBytes { Array($0) } ?? []
    }

    /// New hashes for a `setPins`, under a fresh random salt.
    public func hashes(for change: PINChange) -> PINHashes {
        let salt = SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }
        return PINHashes(
            salt: salt, cancel: hash(change.cancel, salt: salt),
            duress: change.duress.map { hash($0, salt: salt) })
    }

    /// Which PIN `pin` is. Exactly one hash is computed, and for a walker with both PINs both
    /// stored hashes are compared in constant time (`SymmetricKey`'s `==`) whatever was typed, so a
    /// duress PIN takes as long to check as a cancel PIN.
    public func verdict(_ pin: PIN?, against stored: PINHashes?) -> PINVerdict {
        guard let pin, let stored else { return .notGiven }
        let typed = SymmetricKey(data: hash(pin, salt: stored.salt))
        let isCancel = typed == SymmetricKey(data: stored.cancel)
        let isDuress = stored.duress.map { typed == SymmetricKey(data: $0) } ?? false
        if isDuress { return .duress }
        return isCancel ? .cancel : .wrong
    }
}

/// The shell's PIN step: turns the PIN typed with an action into a ``PINVerdict`` and hashes the
/// new PINs of a `setPins`, so the pure machine never sees a PIN.
struct PINChecker: Sendable {
    let hasher: PINHasher

    /// Whether `action` needs the hasher at all (most actions carry no PIN).
    static func applies(to action: Action) -> Bool {
        if case .setPins = action.kind { return true }
        return action.pin != nil
    }

    func check(_ action: Action, _ check: ActionCheck, pins: PINHashes?) -> ActionCheck {
        var check = check
        check.pin = hasher.verdict(action.pin, against: pins)
        if case .setPins(let change) = action.kind { check.newPins = hasher.hashes(for: change) }
        return check
    }
}
