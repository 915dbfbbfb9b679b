import Foundation

/// A stored password: the algorithm, its work factor and salt beside the derived key, so the
/// factor can be raised later without invalidating existing hashes
/// (`pbkdf2-sha512$210000$<salt, base64>$<key, base64>`).
public struct PasswordHash: Hashable, Sendable, LosslessStringConvertible {
    public static let algorithm = "pbkdf2-sha512"

    public let rounds: Int
    public let salt: [UInt8]
    public let key: [UInt8]

    public init(rounds: Int, salt: [UInt8], key: [UInt8]) {
        self.rounds = rounds
        self.salt = salt
        self.key = key
    }

    public var description: String {
        [Self.algorithm, String(rounds), Data(salt).base64EncodedString(), Data(key).base64EncodedString()]
            .joined(separator: "$")
    }

    /// Nil for anything this code did not write (another algorithm, a damaged row).
    public init?(_ description: String) {
        let parts = description.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == Self.algorithm,
            let rounds = Int(parts[1]), rounds > 0,
            let salt = Data(base64Encoded: String(parts[2])), !salt.isEmpty,
            let key = Data(base64Encoded: String(parts[3])), !key.isEmpty
        else { return nil }
        self.init(rounds: rounds, salt: Array(salt), key: Array(key))
    }
}
