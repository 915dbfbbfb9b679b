import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether to colour output: only for a terminal, never with NO_COLOR or TERM=dumb.
enum Terminal {
    static func stdoutSupportsColour(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard isatty(STDOUT_FILENO) == 1 else { return false }
        if environment["NO_COLOR"].map({ !$0.isEmpty }) == true { return false }
        return environment["TERM"] != "dumb"
    }

    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Writes and flushes at once: lines must show up live even through a pipe.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

/// ANSI styles, applied only when colour is on.
public struct Style: Sendable {
    public let enabled: Bool
    public init(enabled: Bool) { self.enabled = enabled }

    public func red(_ s: String) -> String { wrap(s, "1;31") }
    public func green(_ s: String) -> String { wrap(s, "32") }
    public func yellow(_ s: String) -> String { wrap(s, "33") }
    public func cyan(_ s: String) -> String { wrap(s, "36") }
    public func magenta(_ s: String) -> String { wrap(s, "35") }
    public func dim(_ s: String) -> String { wrap(s, "2") }
    public func bold(_ s: String) -> String { wrap(s, "1") }

    private func wrap(_ s: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
    }
}

/// Calls `handler` once on the first SIGINT or SIGTERM instead of dying, so commands can say
/// goodbye (the simulator sends `stop`). A second signal ends the process at once.
struct SignalWatcher {
    private let sources: [any DispatchSourceSignal]

    /// Private on purpose: a watcher comes only from `onInterrupt`, which installs the handlers.
    private init(watching sources: [any DispatchSourceSignal]) { self.sources = sources }

    static func onInterrupt(_ handler: @escaping @Sendable () -> Void) -> SignalWatcher {
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                handler()
                signal(number, SIG_DFL)
            }
            source.resume()
            return source
        }
        return SignalWatcher(watching: sources)
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
