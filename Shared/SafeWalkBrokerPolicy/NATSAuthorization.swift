import Foundation
import SafeWalkCore

/// The users of a NATS cluster, with the same rights `mosquitto/acl` gives them on the single box
/// (``BrokerACL``): NATS's own permission model, each user allowed to publish to and subscribe to
/// exactly the subjects its rules name, everything else denied (docs/SCALING.md, "Logins and
/// rights on the cluster"). Pure: the text of an `authorization { … }` block for a node's
/// configuration, which every node includes and re-reads on a reload.
public enum NATSAuthorization {
    /// A walker's login on the cluster: the id is the username, as on Mosquitto.
    public struct Walker: Equatable, Sendable {
        public var id: WalkerID
        public var password: String

        public init(id: WalkerID, password: String) {
            self.id = id
            self.password = password
        }
    }

    /// The subjects a topic filter covers in NATS, which carries MQTT topics as subjects: `/`
    /// becomes `.`, `+` becomes `*` and `#` becomes `>`. MQTT's `a/#` also matches `a` itself,
    /// which `a.>` does not, so it yields both. Nil for a filter with a `.`, a leading `$` or an
    /// empty level, which NATS would read otherwise than Mosquitto does.
    public static func subjects(of filter: String) -> [String]? {
        let levels = filter.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !filter.hasPrefix("$"), !filter.contains("."), !levels.contains("") else { return nil }
        let converted = levels.map { level in level == "+" ? "*" : level == "#" ? ">" : level }
        let subject = converted.joined(separator: ".")
        guard levels.last == "#", levels.count > 1 else { return [subject] }
        return [converted.dropLast().joined(separator: "."), subject]
    }

    public enum RenderError: Error, Equatable, CustomStringConvertible {
        /// A rule whose topic has no NATS subject (``subjects(of:)``).
        case untranslatable(user: String, topic: String)
        /// A password with a control character, which a configuration string cannot hold as is.
        case unprintablePassword(String)
        /// A walker (or another login) named like one of the ACL's service users.
        case loginIsService(String)

        public var description: String {
            switch self {
            case .untranslatable(let user, let topic): "\(user)'s rule on '\(topic)' has no NATS subject"
            case .unprintablePassword(let login): "\(login)'s password holds a control character"
            case .loginIsService(let login): "'\(login)' is a service user of the ACL, not a walker"
            }
        }
    }

    /// Any login of the cluster beyond the ACL's service users, with its rights spelled out: a
    /// walker (``walkerLogin(_:acl:)``), or one of `broker-admin`'s logins (a device's, an app
    /// session's), whose rights are its role's.
    public struct Login: Equatable, Sendable {
        public var user: String
        public var password: Password
        public var rules: [BrokerACL.Rule]

        public init(user: String, password: Password, rules: [BrokerACL.Rule]) {
            self.user = user
            self.password = password
            self.rules = rules
        }
    }

    /// How a login's password is written: as typed (an operator's walkers file), or as the bcrypt
    /// hash nats-server compares a CONNECT's password with (`broker-admin` keeps no other form).
    public enum Password: Equatable, Sendable {
        case clear(String)
        case bcrypt(String)
    }

    /// A walker from a walkers file: the ACL's `pattern` rights with its id for `%u`, as on Mosquitto.
    public static func walkerLogin(_ walker: Walker, acl: BrokerACL) -> Login {
        Login(user: walker.id.rawValue, password: .clear(walker.password), rules: acl.rules(for: walker.id.rawValue))
    }

    /// The `authorization` block: every service user of `acl` with its password taken from the
    /// node's environment at load (`$WATCHDOG_MQTT_PASSWORD` for `watchdog`, as compose names
    /// them), then `walkers` with their own passwords. Every user may connect over MQTT only:
    /// SafeWalk's logins are MQTT clients, and the NATS protocol would let a login past what MQTT
    /// refuses (a subject starting with `$`, NATS's own wildcards and requests).
    public static func block(acl: BrokerACL, walkers: [Walker]) throws(RenderError) -> String {
        try block(acl: acl, logins: walkers.map { walkerLogin($0, acl: acl) })
    }

    /// The `authorization` block of the ACL's service users and `logins`, each with exactly its
    /// own rules. A login named like a service user is refused: it would be a second entry for
    /// that user, and the node would keep one of the two.
    public static func block(acl: BrokerACL, logins: [Login]) throws(RenderError) -> String {
        var entries: [String] = []
        for user in acl.users {
            entries.append(
                try entry(
                    user: user.name, password: "$\(passwordVariable(of: user.name))", rules: acl.rules(for: user.name)))
        }
        let services = Set(acl.users.map(\.name))
        for login in logins {
            guard !services.contains(login.user) else { throw .loginIsService(login.user) }
            let password: String
            switch login.password {
            case .clear(let text), .bcrypt(let text):
                guard text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) else {
                    throw .unprintablePassword(login.user)
                }
                password = quoted(text)
            }
            entries.append(try entry(user: login.user, password: password, rules: login.rules))
        }
        return "authorization {\n  users = [\n" + entries.joined(separator: "\n") + "\n  ]\n}\n"
    }

    /// `WATCHDOG_MQTT_PASSWORD` for `watchdog`, `CONTACTS_STORE_MQTT_PASSWORD` for `contacts-store`.
    public static func passwordVariable(of service: String) -> String {
        service.uppercased().replacingOccurrences(of: "-", with: "_") + "_MQTT_PASSWORD"
    }

    private static func entry(user: String, password: String, rules: [BrokerACL.Rule]) throws(RenderError) -> String {
        // nats-server 2.15.1 delivers a QoS 1 subscription's messages without a right on its
        // internal `$MQTT.sub.>` (measured: a persistent session of a login without it got every
        // message); Debian's 2.9.10 wanted one (scripts/cluster-trial.sh).
        var publish: [String] = []
        var subscribe: [String] = []
        for rule in rules {
            guard let subjects = subjects(of: rule.topic) else { throw .untranslatable(user: user, topic: rule.topic) }
            let routed = routedForm(of: rule.topic).flatMap { Self.subjects(of: $0) } ?? []
            if rule.access.writes { publish += (subjects + routed).filter { !publish.contains($0) } }
            if rule.access.reads { subscribe += subjects.filter { !subscribe.contains($0) } }
        }
        return """
                {
                  user: \(quoted(user))
                  password: \(password)
                  allowed_connection_types: ["MQTT"]
                  permissions: {
                    publish: \(rights(publish))
                    subscribe: \(rights(subscribe))
                  }
                }
            """
    }

    /// `topic/+` when `topic` names a partitioned input exactly (``Topic/Kind/isPartitioned``:
    /// `safewalk/%u/action`, `safewalk/+/position`), else nil. nats-server checks a publish
    /// against the subject its mappings made of it (2.15.1: alice's action was refused as
    /// `safewalk.alice.action.1` while she had only `safewalk.alice.action`), so a right to publish
    /// such an input must cover its routed form, on a cluster with several watchdogs
    /// (`safewalk nats-mappings`). The level it adds is the walker's own partition, or another the
    /// device chose by publishing there itself: still the walker's own input, which the watchdog
    /// of that partition handles and counts as misrouted.
    static func routedForm(of topic: String) -> String? {
        let sample = topic.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0 == "+" || $0 == "%u" ? "w" : String($0) }.joined(separator: "/")
        guard let parsed = Topic.parse(sample), parsed.kind.isPartitioned, parsed.name() == sample else { return nil }
        return topic + "/+"
    }

    /// NATS reads an empty `allow` list as no limit at all: a user with nothing to publish (or to
    /// read) is denied everything instead.
    private static func rights(_ subjects: [String]) -> String {
        subjects.isEmpty ? "{ deny: [\">\"] }" : "{ allow: [\(subjects.map(quoted).joined(separator: ", "))] }"
    }

    /// A double-quoted configuration string; NATS reads `\"` and `\\` in one.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
