import Foundation
import Testing

/// compose/docker-compose.yml against README.md and compose/.env.example, so they cannot drift
/// (issue 16: the notifier's SMS template and timeouts were documented but never passed, so a
/// compose deployment texted no one). Reads the files; needs no Docker.
@Suite struct ComposeEnvironmentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let services = [
        "location-ingest", "watchdog", "companion-chat", "notifier", "contacts-store", "broker-admin", "web",
    ]
    /// The services README.md's "Service-specific settings" list covers. web's own settings are
    /// documented in docs/services/web.md; for it, the variables its settings read count.
    static let inReadmeList = services.filter { $0 != "web" }
    static let webSettings = [
        "Services/web/Kit/Service/WebSettings.swift", "Services/web/Kit/Service/LiveSettings.swift",
    ]
    /// Documented but deliberately not passed: compose's services reach the broker over the
    /// `backend` network in plain MQTT (TLS is for devices beyond the host; compose/README.md),
    /// compose's one Mosquitto has no other nodes to fail over to, each service's container
    /// has a volume of its own, which no standby shares, and Mosquitto maps no topic to a
    /// partition: a partitioned instance there would read nothing (docs/SCALING.md). Its
    /// broker-admin keeps the logins in Mosquitto's plugin, not in a NATS users file.
    static let notPassed: Set<String> = [
        "SAFEWALK_MQTT_TLS_CA", "SAFEWALK_MQTT_TLS_CERT", "SAFEWALK_MQTT_TLS_KEY", "SAFEWALK_MQTT_FAILOVER",
        "SAFEWALK_STANDBY", "SAFEWALK_MQTT_KEEPALIVE", "SAFEWALK_PARTITIONS", "SAFEWALK_PARTITION",
        "SAFEWALK_ADMIN_BROKER", "SAFEWALK_NATS_USERS_FILE", "SAFEWALK_NATS_LOADED_DIR", "SAFEWALK_NATS_NODES",
        "SAFEWALK_NATS_RELOAD_WAIT", "SAFEWALK_NATS_BCRYPT_COST", "SAFEWALK_ACL_FILE",
    ]

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static func variables(in text: String) -> [String] {
        text.matches(of: /(?:SAFEWALK|GEMINI)_[A-Z0-9_]*[A-Z0-9]/).map { String($0.output) }
    }

    /// The README's documented variables: the shared table ("Every service reads…") and the
    /// "Service-specific settings" list, one bullet per service.
    static func readme() throws -> (shared: [String], perService: [String: [String]]) {
        let lines = try text("README.md").components(separatedBy: "\n")
        var shared: [String] = []
        if let header = lines.firstIndex(where: { $0.hasPrefix("| variable | default | meaning |") }) {
            for line in lines[(header + 2)...] {
                guard line.hasPrefix("|") else { break }
                shared += variables(in: String(line.split(separator: "|", omittingEmptySubsequences: true).first ?? ""))
            }
        }
        var perService: [String: [String]] = [:]
        if let start = lines.firstIndex(where: { $0.hasPrefix("Service-specific settings") }) {
            var current: String?
            for line in lines[(start + 1)...] {
                if line.trimmingCharacters(in: .whitespaces).isEmpty { break }
                if line.hasPrefix("- "), let colon = line.firstIndex(of: ":") {
                    current = String(line[line.index(line.startIndex, offsetBy: 2)..<colon])
                    perService[current!, default: []] += variables(in: String(line[colon...]))
                } else if let current {
                    perService[current, default: []] += variables(in: line)
                }
            }
        }
        return (shared, perService)
    }

    /// Which services a shared-table variable is for: all of them when shared code reads it,
    /// else the services whose own sources read it (the Gemini key goes to companion-chat only).
    static func readers(of variable: String) throws -> [String] {
        func mentions(_ directory: String) throws -> Bool {
            let base = root.appendingPathComponent(directory)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else {
                return false
            }
            for case let file as URL in walker where file.pathExtension == "swift" {
                if try String(contentsOf: file, encoding: .utf8).contains("\"\(variable)\"") { return true }
            }
            return false
        }
        if try mentions("Shared") { return services }
        let own = try services.filter { try mentions("Services/\($0)") }
        return own.isEmpty ? services : own
    }

    /// Every variable web's settings read (`"SAFEWALK_…"` literals in its settings files).
    static func webVariables() throws -> Set<String> {
        Set(
            try webSettings.flatMap { file in
                try text(file).matches(of: /"(SAFEWALK_[A-Z0-9_]+)"/).map { String($0.output.1) }
            })
    }

    /// What README.md documents for each service (for web: what it reads).
    static func documented() throws -> [String: Set<String>] {
        let (shared, perService) = try readme()
        var result: [String: Set<String>] = Dictionary(uniqueKeysWithValues: services.map { ($0, []) })
        for variable in shared {
            for service in try readers(of: variable) { result[service]!.insert(variable) }
        }
        for (service, variables) in perService { result[service, default: []].formUnion(variables) }
        result["web"]!.formUnion(try webVariables())
        return result
    }

    static func compose() throws -> MiniYAML.Node {
        try MiniYAML.parse(text("compose/docker-compose.yml"))
    }

    static func environment(of service: String, in compose: MiniYAML.Node) -> [String: String] {
        compose["services"]?[service]?["environment"]?.scalars ?? [:]
    }

    @Test func theReadmeListsAreFoundAndNameEveryService() throws {
        let (shared, perService) = try Self.readme()
        #expect(shared.count >= 20, "README.md's shared variable table not found or shrunk: \(shared)")
        #expect(
            Set(perService.keys) == Set(Self.inReadmeList),
            "README.md's service-specific list names \(perService.keys.sorted())")
        #expect(try Self.webVariables().count >= 15, "web's settings not found in \(Self.webSettings)")
        #expect(try Self.readers(of: "GEMINI_API_KEY") == ["companion-chat"])
        #expect(try Self.readers(of: "SAFEWALK_LOG_LEVEL") == Self.services)
    }

    @Test func composePassesEveryDocumentedVariableToItsService() throws {
        let compose = try Self.compose()
        var missing: [String] = []
        for (service, variables) in try Self.documented().sorted(by: { $0.key < $1.key }) {
            let passed = Self.environment(of: service, in: compose)
            #expect(!passed.isEmpty, "compose/docker-compose.yml has no environment for \(service)")
            missing += variables.subtracting(Self.notPassed).subtracting(passed.keys).sorted().map {
                "\(service): \($0)"
            }
        }
        #expect(
            missing.isEmpty, "README.md documents these, but compose/docker-compose.yml does not pass them: \(missing)")
    }

    @Test func composePassesNoVariableTheReadmeDoesNotDocumentForThatService() throws {
        let compose = try Self.compose()
        let documented = try Self.documented()
        var extra: [String] = []
        for service in Self.services {
            let passed = Self.environment(of: service, in: compose).keys.filter { !Self.variables(in: $0).isEmpty }
            extra += passed.filter { !documented[service]!.contains($0) }.sorted().map { "\(service): \($0)" }
        }
        #expect(
            extra.isEmpty,
            "compose/docker-compose.yml passes these, but README.md does not document them for that service: \(extra)")
    }

    /// Every `${VARIABLE}` compose reads is in the example file an operator copies, and the
    /// example sets nothing compose ignores.
    @Test func envExampleHasExactlyTheVariablesComposeReads() throws {
        let compose = try Self.text("compose/docker-compose.yml")
        let read = Set(compose.matches(of: /\$\{([A-Z0-9_]+)/).map { String($0.output.1) })
        let example = try Self.text("compose/.env.example").components(separatedBy: "\n")
            .filter { !$0.hasPrefix("#") }
            .compactMap { line in line.firstMatch(of: /^([A-Z0-9_]+)=/).map { String($0.output.1) } }
        #expect(read.subtracting(example).isEmpty, "compose/.env.example lacks \(read.subtracting(example).sorted())")
        #expect(
            Set(example).subtracting(read).isEmpty,
            "compose ignores \(Set(example).subtracting(read).sorted()) from compose/.env.example")
    }

    /// Beyond the host only MQTT over TLS and HTTPS: the broker and web alone publish ports,
    /// plain MQTT (1883) only on 127.0.0.1, web only its HTTPS listener, and no other service
    /// publishes anything (metrics are HTTP).
    @Test func onlyTheBrokerAndWebPublishAndNothingLeavesTheHostInClear() throws {
        let compose = try Self.compose()
        for service in Self.services where service != "web" {
            #expect(compose["services"]?[service]?["ports"] == nil, "\(service) publishes ports")
        }
        let web = Self.environment(of: "web", in: compose)
        let webPorts = compose["services"]?["web"]?["ports"]?.items ?? []
        #expect(webPorts.count == 1 && webPorts.allSatisfy { $0.hasSuffix(":\(web["SAFEWALK_HTTP_PORT"] ?? "?")") })
        #expect(web["SAFEWALK_TLS_CERT"]?.isEmpty == false && web["SAFEWALK_TLS_KEY"]?.isEmpty == false)
        let ports = compose["services"]?["broker"]?["ports"]?.items ?? []
        #expect(ports.count == 2, "broker ports: \(ports)")
        for mapping in ports {
            if mapping.hasSuffix(":1883") {
                #expect(mapping.hasPrefix("127.0.0.1:"), "plain MQTT is published beyond the host: \(mapping)")
            } else {
                #expect(
                    mapping.hasSuffix(":8883"), "the broker publishes something other than MQTT over TLS: \(mapping)")
            }
        }
    }

    /// Walkers sign up at web; compose writes none into the broker's password file. The
    /// dynamic-security plugin is asked first, so a sign-up of a password-file walker's name would
    /// shadow that walker and take over its topics. The broker gets service passwords alone.
    @Test func theBrokerIsGivenNoWalkerLogins() throws {
        let broker = Self.environment(of: "broker", in: try Self.compose())
        let others = broker.keys.filter { !$0.hasSuffix("_MQTT_PASSWORD") }.sorted()
        #expect(!broker.isEmpty && others.isEmpty, "the broker is given \(others)")
        #expect(!(try Self.text("compose/broker-entrypoint.sh")).contains("--walker"))
    }

    /// The OwnTracks set-up web hands a phone names the broker's published TLS listener.
    @Test func webTellsPhonesTheBrokersPublishedTLSPort() throws {
        let compose = try Self.compose()
        let web = Self.environment(of: "web", in: compose)
        let tls = (compose["services"]?["broker"]?["ports"]?.items ?? []).filter { $0.hasSuffix(":8883") }
        #expect(tls.count == 1 && tls[0].contains("${SAFEWALK_BROKER_TLS_PORT:-8883}"), "broker ports: \(tls)")
        #expect(web["SAFEWALK_PUBLIC_MQTT_PORT"] == "${SAFEWALK_BROKER_TLS_PORT:-8883}")
        #expect(web["SAFEWALK_PUBLIC_MQTT_TLS"] == "true")
        #expect(web["SAFEWALK_PUBLIC_MQTT_HOST"]?.hasPrefix("${SAFEWALK_PUBLIC_MQTT_HOST:?") == true)
    }

    @Test func theParserResolvesAnchorsAndMerges() throws {
        let node = try MiniYAML.parse(
            """
            x-env: &env
              A: "1"   # comment
              B: two
            services:
              s:
                environment:
                  <<: *env
                  B: three
                ports:
                  - "127.0.0.1:1:2"
            """)
        #expect(node["services"]?["s"]?["environment"]?.scalars == ["A": "1", "B": "three"])
        #expect(node["services"]?["s"]?["ports"]?.items == ["127.0.0.1:1:2"])
    }

    /// compose/cluster/docker-compose.yml merges several anchors and runs a folded command.
    @Test func theParserMergesAListOfAnchorsEarliestFirstAndFoldsBlockScalars() throws {
        let node = try MiniYAML.parse(
            """
            x-a: &a
              A: a
              B: a
            x-b: &b
              B: b
              C: b
            s:
              environment:
                <<: [*a, *b]
                C: own
              command:
                - >-
                  one: two
                  && three
              after: here
            """)
        #expect(node["s"]?["environment"]?.scalars == ["A": "a", "B": "a", "C": "own"])
        #expect(node["s"]?["command"]?.items == ["one: two && three"])
        #expect(node["s"]?["after"] == .scalar("here"))
    }
}

/// The block-style subset of YAML that compose/docker-compose.yml uses: nested mappings, anchors
/// (`&name`), aliases and merge keys (`<<: *name`, `<<: [*a, *b]`), `- item` lists, quoted and
/// plain scalars, folded block scalars (`>-`, joined with spaces) and comments. Flow collections
/// (`[a, b]`) stay scalars.
enum MiniYAML {
    indirect enum Node: Equatable {
        case map([String: Node])
        case list([Node])
        case scalar(String)

        subscript(key: String) -> Node? {
            if case .map(let entries) = self { return entries[key] }
            return nil
        }
        var scalars: [String: String] {
            guard case .map(let entries) = self else { return [:] }
            return entries.compactMapValues { node -> String? in
                guard case .scalar(let value) = node else { return nil }
                return value
            }
        }
        var items: [String] {
            guard case .list(let items) = self else { return [] }
            return items.compactMap { node -> String? in
                guard case .scalar(let value) = node else { return nil }
                return value
            }
        }
    }

    struct ParseError: Error, CustomStringConvertible { var description: String }

    static func parse(_ text: String) throws -> Node {
        var lines: [(indent: Int, text: String)] = []
        for raw in text.components(separatedBy: "\n") {
            let line = stripComment(raw)
            let content = line.drop(while: { $0 == " " })
            if content.isEmpty { continue }
            lines.append((line.count - content.count, String(content).trimmingCharacters(in: .whitespaces)))
        }
        var parser = Parser(lines: lines)
        return try parser.block(indent: 0)
    }

    static func stripComment(_ line: String) -> String {
        var quote: Character?
        var previous: Character = " "
        for (offset, character) in line.enumerated() {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "#" && previous == " " {
                return String(line.prefix(offset))
            }
            previous = character
        }
        return line
    }

    static func unquote(_ value: String) -> String {
        if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
            return String(value.dropFirst().dropLast())
        }
        return value
    }

    struct Parser {
        let lines: [(indent: Int, text: String)]
        var index = 0
        var anchors: [String: Node] = [:]

        mutating func block(indent: Int) throws -> Node {
            guard index < lines.count else { return .map([:]) }
            if lines[index].text.hasPrefix("- ") || lines[index].text == "-" {
                var items: [Node] = []
                while index < lines.count, lines[index].indent == indent, lines[index].text.hasPrefix("-") {
                    let item = String(lines[index].text.dropFirst()).trimmingCharacters(in: .whitespaces)
                    index += 1
                    if Self.isBlockScalar(item) {
                        items.append(.scalar(foldedLines(deeperThan: indent)))
                        continue
                    }
                    items.append(.scalar(MiniYAML.unquote(item)))
                    if index < lines.count, lines[index].indent > indent { _ = try block(indent: lines[index].indent) }
                }
                return .list(items)
            }
            var entries: [String: Node] = [:]
            var merged: [String: Node] = [:]
            while index < lines.count, lines[index].indent == indent {
                let line = lines[index].text
                guard
                    let colon = line.firstRange(of: ": ")
                        ?? (line.hasSuffix(":") ? line.index(before: line.endIndex)..<line.endIndex : nil)
                else { throw ParseError(description: "not a mapping entry: \(line)") }
                let key = MiniYAML.unquote(String(line[..<colon.lowerBound]))
                let value = line[colon.upperBound...].trimmingCharacters(in: .whitespaces)
                index += 1
                let node: Node
                if Self.isBlockScalar(value) {
                    node = .scalar(foldedLines(deeperThan: indent))
                } else if value.isEmpty || value.hasPrefix("&") {
                    if index < lines.count, lines[index].indent > indent {
                        node = try block(indent: lines[index].indent)
                    } else {
                        node = .scalar("")
                    }
                    if value.hasPrefix("&") { anchors[String(value.dropFirst())] = node }
                } else if value.hasPrefix("*") {
                    node = try alias(value)
                } else if key == "<<", value.hasPrefix("["), value.hasSuffix("]") {
                    // `<<: [*a, *b]`: the earlier mapping's keys win (YAML's merge key).
                    var combined: [String: Node] = [:]
                    for name in value.dropFirst().dropLast().split(separator: ",") {
                        guard case .map(let base) = try alias(name.trimmingCharacters(in: .whitespaces)) else {
                            throw ParseError(description: "merge of a non-mapping \(name)")
                        }
                        combined.merge(base) { earlier, _ in earlier }
                    }
                    node = .map(combined)
                } else {
                    node = .scalar(MiniYAML.unquote(value))
                }
                if key == "<<" {
                    guard case .map(let base) = node else { throw ParseError(description: "merge of a non-mapping") }
                    merged.merge(base) { old, _ in old }
                } else {
                    entries[key] = node
                }
            }
            return .map(merged.merging(entries) { _, explicit in explicit })
        }

        /// `>-`, `|` and the like: the text is the more-indented lines that follow.
        static func isBlockScalar(_ value: String) -> Bool { value.first == ">" || value.first == "|" }

        /// The lines after a block scalar's indicator, joined with spaces (comments already gone).
        mutating func foldedLines(deeperThan indent: Int) -> String {
            var text: [String] = []
            while index < lines.count, lines[index].indent > indent {
                text.append(lines[index].text)
                index += 1
            }
            return text.joined(separator: " ")
        }

        func alias(_ value: String) throws -> Node {
            guard value.hasPrefix("*"), let target = anchors[String(value.dropFirst())] else {
                throw ParseError(description: "unknown alias \(value)")
            }
            return target
        }
    }
}
