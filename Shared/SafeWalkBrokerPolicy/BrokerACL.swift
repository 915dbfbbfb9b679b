import Foundation

/// The broker's ACL file (`mosquitto/acl`) as rules: the one place SafeWalk says who may read and
/// write which topics. The single box's Mosquitto reads the file itself; ``NATSAuthorization``
/// turns the same rules into a NATS cluster's users, so both brokers enforce one policy.
///
/// Mosquitto's format, as far as `mosquitto/acl` uses it: `user NAME` opens a user's section,
/// `topic [read|write|readwrite] TOPIC` belongs to the section above it, and
/// `pattern [read|write|readwrite] TOPIC` applies to every user with `%u` standing for the
/// username. Anything else (an `include`, a `%c` pattern, a topic line before any user) is refused
/// rather than guessed at: a rule read wrongly is a user with rights it should not have.
public struct BrokerACL: Equatable, Sendable {
    public enum Access: String, Hashable, Sendable {
        case read, write, readwrite

        public var reads: Bool { self != .write }
        public var writes: Bool { self != .read }
    }

    public struct Rule: Hashable, Sendable {
        public var access: Access
        public var topic: String

        public init(_ access: Access, _ topic: String) {
            self.access = access
            self.topic = topic
        }
    }

    public struct User: Equatable, Sendable {
        public var name: String
        public var rules: [Rule]
    }

    /// For every user, `%u` replaced by the username.
    public var patterns: [Rule]
    /// Each `user` section, in the file's order.
    public var users: [User]

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "ACL line \(line): \(reason)" }
    }

    public init(parsing text: String) throws(ParseError) {
        patterns = []
        users = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = raw.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let keyword = words.first, !keyword.hasPrefix("#") else { continue }
            let line = index + 1
            switch keyword {
            case "user":
                guard words.count == 2 else { throw ParseError(line: line, reason: "`user` takes one name") }
                users.append(User(name: words[1], rules: []))
            case "topic", "pattern":
                let rule = try Self.rule(words.dropFirst(), line: line)
                if keyword == "pattern" {
                    guard !rule.topic.contains("%c") else {
                        throw ParseError(line: line, reason: "`%c` (client id) patterns have no NATS form")
                    }
                    patterns.append(rule)
                } else {
                    guard !users.isEmpty else {
                        throw ParseError(line: line, reason: "a `topic` line before any `user` (anonymous rules)")
                    }
                    users[users.count - 1].rules.append(rule)
                }
            default:
                throw ParseError(line: line, reason: "`\(keyword)` is not a rule this reader knows")
            }
        }
    }

    /// `[access] topic`: Mosquitto's access is `readwrite` when it is left out.
    private static func rule(_ words: ArraySlice<String>, line: Int) throws(ParseError) -> Rule {
        switch words.count {
        case 1: return Rule(.readwrite, words[words.startIndex])
        case 2:
            guard let access = Access(rawValue: words[words.startIndex]) else {
                throw ParseError(line: line, reason: "`\(words[words.startIndex])` is not read, write or readwrite")
            }
            return Rule(access, words[words.startIndex + 1])
        default:
            throw ParseError(line: line, reason: "a rule is `[read|write|readwrite] TOPIC`; a topic has no spaces")
        }
    }

    /// Every rule that applies to `username`: its section's, then the patterns with `%u` filled in.
    public func rules(for username: String) -> [Rule] {
        let own = users.first(where: { $0.name == username })?.rules ?? []
        return own + patterns.map { Rule($0.access, $0.topic.replacingOccurrences(of: "%u", with: username)) }
    }
}
