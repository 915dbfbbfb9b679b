import Foundation
import SafeWalkService

/// The users file every NATS node includes, and the nodes' word that they loaded it.
///
/// `broker-admin` writes the file whole (a temporary file renamed over it, so a node never reads
/// half of one). Beside each node runs `compose/cluster/nats/reload-on-change.sh`: when the
/// file's SHA-256 changes it signals its node to reload, then writes that digest to
/// `{acknowledgements}/{node}.loaded`. A login is in force on a node once that file holds the
/// digest of a users file that has it.
public struct NATSUsersFile: Sendable {
    public var path: URL
    /// Where the nodes' `{node}.loaded` files are.
    public var acknowledgements: URL

    public init(path: URL, acknowledgements: URL) {
        self.path = path
        self.acknowledgements = acknowledgements
    }

    /// Writes `text` (readable by owner and group only: it holds password hashes) and returns
    /// its digest, as `sha256sum` prints it.
    @discardableResult
    public func write(_ text: String) throws -> String {
        try FileManager.default.createDirectory(
            at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = path.deletingLastPathComponent().appendingPathComponent(".\(path.lastPathComponent).new")
        try Data(text.utf8).write(to: temporary)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: temporary.path)
        guard rename(temporary.path, path.path) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        return TokenText.sha256Hex(text)
    }

    /// The digest `node` last acknowledged loading, if any.
    public func loadedDigest(of node: String) -> String? {
        let file = acknowledgements.appendingPathComponent("\(node).loaded")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
