import Foundation
import SafeWalkWebKit

/// `web-bench`: what one password verification costs (PBKDF2-HMAC-SHA512 at the service's
/// rounds), one at a time and on every core at once. Run in release: swift-crypto's C is built
/// without optimisation in debug. docs/services/web.md quotes its output.
///
///     swift run -c release web-bench [--rounds 210000] [--count 20]
@main
struct WebBench {
    static func main() async throws {
        var rounds = PasswordHasher.defaultRounds
        var count = 20
        var arguments = CommandLine.arguments.dropFirst()
        while let option = arguments.popFirst() {
            switch option {
            case "--rounds": rounds = try value(of: option, arguments.popFirst())
            case "--count": count = try value(of: option, arguments.popFirst())
            case "--help", "-h":
                print("usage: web-bench [--rounds N (default 210000)] [--count N (default 20)]")
                return
            default:
                FileHandle.standardError.write(Data("web-bench: unknown option \(option) (see --help)\n".utf8))
                exit(64)
            }
        }
        let hasher = PasswordHasher(rounds: rounds)
        let stored = hasher.hash("measure-me-1!")
        var milliseconds: [Double] = []
        for _ in 0..<count {
            let start = ContinuousClock.now
            guard hasher.verify("measure-me-1!", against: stored) else { fatalError("verification failed") }
            milliseconds.append((ContinuousClock.now - start).milliseconds)
        }
        milliseconds.sort()
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let work = PasswordWork(hasher: hasher, limit: cores * count)
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<(cores * count) { group.addTask { try await work.verify("measure-me-1!", against: stored) } }
            for try await matched in group where !matched { fatalError("verification failed") }
        }
        let perSecond = Double(cores * count) / (ContinuousClock.now - start).milliseconds * 1000
        print(
            """
            PBKDF2-HMAC-SHA512, \(rounds) rounds, 16-byte salt, 64-byte key
            one verification: median \(format(milliseconds[count / 2])) ms, \
            min \(format(milliseconds[0])) ms, max \(format(milliseconds[count - 1])) ms (\(count) in a row)
            on \(cores) cores through PasswordWork: \(format(perSecond)) verifications/s
            """)
    }

    static func value(of option: String, _ text: String?) throws -> Int {
        guard let text, let value = Int(text), value > 0 else {
            FileHandle.standardError.write(Data("web-bench: \(option) needs a positive integer\n".utf8))
            exit(64)
        }
        return value
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}

extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
