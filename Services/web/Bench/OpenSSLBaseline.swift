import Foundation
import Subprocess

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// The same PBKDF2-HMAC-SHA512 by OpenSSL, through Python's `hashlib.pbkdf2_hmac` (Debian's
/// python3 links libcrypto): a well-kept implementation of the same work on the same machine, so
/// the ratio says what swift-crypto costs beside it, whatever else the machine is doing.
struct OpenSSLBaseline {
    let python: String

    /// Each derivation timed inside Python (interpreter start-up excluded), in seconds.
    func derivations(rounds: Int, count: Int) async throws -> [Double] {
        let script = """
            import hashlib, os, sys, time
            rounds, count = int(sys.argv[1]), int(sys.argv[2])
            salt = os.urandom(16)
            for _ in range(count):
                start = time.perf_counter()
                hashlib.pbkdf2_hmac("sha512", b"measure-me-1!", salt, rounds, 64)
                print(time.perf_counter() - start)
            """
        let result = try await Subprocess.run(
            .path(FilePath(python)), arguments: ["-c", script, "\(rounds)", "\(count)"],
            output: .string(limit: 1 << 20), error: .discarded)
        let samples = result.standardOutput.split(separator: "\n").compactMap { Double($0) }
        guard result.terminationStatus.isSuccess, samples.count == count else {
            throw BaselineError(status: "\(result.terminationStatus)", samples: samples.count)
        }
        return samples
    }

    struct BaselineError: Error, CustomStringConvertible {
        let status: String
        let samples: Int
        var description: String { "the OpenSSL baseline exited \(status) after \(samples) samples" }
    }
}
