import Foundation
import SafeWalkCore
import Testing

/// compose/cluster/docker-compose.yml against the rules a partitioned cluster lives by
/// (docs/SCALING.md, "Walkers partitioned") and against the single box's compose file, so the two
/// cannot drift. Reads the files; needs no Docker (compose/cluster/smoke.sh runs the stack).
@Suite struct ClusterComposeTests {
    typealias Node = MiniYAML.Node
    static let nodes: Set<String> = ["nats1", "nats2", "nats3"]
    /// The services WalkerPartition routes (watchdog, companion-chat, location-ingest: the kinds
    /// `Topic.Kind.isPartitioned` names are their inputs) and the notifier, whose instances each
    /// act for their own walkers (`NotifierShare`); the others run once.
    static let partitioned = ["watchdog", "location-ingest", "companion-chat", "notifier"]
    static let single = ["contacts-store", "broker-admin", "web"]

    /// On the cluster and not on the single box: the other nodes, TLS to them (a node has one
    /// MQTT listener, which is TLS), the partition of each instance, and broker-admin's users file
    /// for the nodes (instead of Mosquitto's plugin).
    static let clusterOnly: Set<String> = [
        "SAFEWALK_MQTT_FAILOVER", "SAFEWALK_MQTT_TLS_CA", "SAFEWALK_PARTITIONS", "SAFEWALK_PARTITION",
        "SAFEWALK_ADMIN_BROKER",
        "SAFEWALK_NATS_USERS_FILE", "SAFEWALK_NATS_LOADED_DIR", "SAFEWALK_NATS_NODES", "SAFEWALK_NATS_RELOAD_WAIT",
        "SAFEWALK_NATS_BCRYPT_COST", "SAFEWALK_ACL_FILE",
    ]
    /// Passed on the single box, deliberately not on the cluster: the healthchecks read each
    /// instance's own `/health`, which needs no broker login, and the cluster has no plugin to
    /// wait for.
    static let singleBoxOnly: Set<String> = ["HEALTHCHECK_MQTT_PASSWORD", "SAFEWALK_ADMIN_PLUGIN_TIMEOUT"]

    static func cluster() throws -> Node {
        try MiniYAML.parse(ComposeEnvironmentTests.text("compose/cluster/docker-compose.yml"))
    }

    static var services: [String: Node] {
        get throws {
            guard case .map(let services)? = try cluster()["services"] else { return [:] }
            return services
        }
    }

    static func environment(_ service: String) throws -> [String: String] {
        try services[service]?["environment"]?.scalars ?? [:]
    }

    /// The items of a flow list (`[a, b]`), which MiniYAML keeps as one scalar.
    static func flowItems(_ node: Node?) -> [String] {
        guard case .scalar(let text)? = node, text.hasPrefix("["), text.hasSuffix("]") else { return node?.items ?? [] }
        return text.dropFirst().dropLast().split(separator: ",").map {
            MiniYAML.unquote($0.trimmingCharacters(in: .whitespaces))
        }
    }

    /// N: what `cluster-config` gives `safewalk nats-mappings`.
    static func mappedPartitions() throws -> Int? {
        let command = try services["cluster-config"]?["command"]?.items.joined(separator: " ") ?? ""
        return command.firstMatch(of: /nats-mappings --partitions (\d+)/).flatMap { Int($0.output.1) }
    }

    @Test func eachPartitionedServiceHasOneInstancePerPartitionOfTheNodesMappings() throws {
        let count = try #require(try Self.mappedPartitions(), "cluster-config runs no `nats-mappings --partitions N`")
        let services = try Self.services
        for kind in Self.partitioned {
            let instances = services.keys.filter { $0.hasPrefix("\(kind)-") }.sorted()
            #expect(instances == (0..<count).map { "\(kind)-\($0)" }, "\(kind): \(instances) for \(count) partitions")
            for instance in instances {
                let environment = try Self.environment(instance)
                #expect(environment["SAFEWALK_PARTITIONS"] == "\(count)", "\(instance)")
                #expect(environment["SAFEWALK_PARTITION"] == instance.split(separator: "-").last.map(String.init))
            }
        }
        for service in Self.single {
            #expect(try Self.environment(service)["SAFEWALK_PARTITIONS"] == nil, "\(service) is not partitioned")
        }
    }

    /// Each instance its own persistent session (client id) and its own data volume: two instances
    /// on one session would take each other's messages, two on one store each other's watches.
    @Test func everyInstanceHasItsOwnClientIDAndDataVolume() throws {
        let services = try Self.services
        let instances = services.keys.filter { name in
            Self.single.contains(name) || Self.partitioned.contains { name.hasPrefix("\($0)-") }
        }
        #expect(instances.count == Self.single.count + Self.partitioned.count * ((try Self.mappedPartitions()) ?? 0))
        var clientIDs: [String] = []
        var volumes: [String] = []
        for instance in instances {
            clientIDs.append(try Self.environment(instance)["SAFEWALK_MQTT_CLIENT_ID"] ?? "none")
            volumes += Self.flowItems(services[instance]?["volumes"]).filter { $0.hasSuffix(":/data") }
        }
        #expect(Set(clientIDs).count == instances.count && !clientIDs.contains("none"), "client ids: \(clientIDs)")
        #expect(Set(volumes).count == instances.count, "data volumes: \(volumes)")
    }

    /// A home node and the other two to move to: every service can reach all three.
    @Test func everyServiceHasAHomeNodeAndTheOtherTwoToMoveTo() throws {
        for (name, service) in try Self.services where service["command"] != nil && name != "cluster-config" {
            let environment = try Self.environment(name)
            let home = try #require(environment["SAFEWALK_MQTT_HOST"], "\(name) has no home node")
            let others = (environment["SAFEWALK_MQTT_FAILOVER"] ?? "").split(separator: ",").map {
                String($0.split(separator: ":").first ?? "")
            }
            #expect(Set([home] + others) == Self.nodes && others.count == 2, "\(name): \(home) then \(others)")
            var waitsFor: Set<String> = []
            if case .map(let entries)? = service["depends_on"] { waitsFor = Set(entries.keys) }
            #expect(waitsFor.isSuperset(of: Self.nodes), "\(name) starts before the nodes are healthy")
        }
    }

    /// Nothing leaves the host in clear: each node publishes its one MQTT listener, which is TLS
    /// (8883, the entrypoint refuses to start without the certificate), web its HTTPS, and
    /// nothing else publishes anything (metrics and health are HTTP, inside each container).
    @Test func onlyTheNodesTLSAndWebsHTTPSArePublished() throws {
        let entrypoint = try ComposeEnvironmentTests.text("compose/cluster/nats/entrypoint.sh")
        #expect(entrypoint.contains("listen: 0.0.0.0:8883\n  tls {"), "the nodes' MQTT listener is not TLS")
        #expect(try Self.environment("web")["SAFEWALK_TLS_CERT"] != nil, "web serves plain HTTP")
        for (name, service) in try Self.services {
            let ports = Self.flowItems(service["ports"])
            if Self.nodes.contains(name) {
                #expect(ports.count == 1 && ports.allSatisfy { $0.hasSuffix(":8883") }, "\(name): \(ports)")
            } else if name == "web" {
                #expect(ports.count == 1 && ports.allSatisfy { $0.hasSuffix(":8443") }, "web: \(ports)")
            } else {
                #expect(ports.isEmpty, "\(name) publishes \(ports)")
            }
        }
    }

    /// Every node checks every service's login: each is given every password users.conf names
    /// for the services this file runs, and nothing else.
    @Test func everyNodeIsGivenThePasswordsOfTheServicesItRuns() throws {
        let runs = Self.partitioned + Self.single + ["operator"]
        let wanted = Set(runs.map { $0.uppercased().replacingOccurrences(of: "-", with: "_") + "_MQTT_PASSWORD" })
        for node in Self.nodes {
            let environment = try Self.environment(node)
            #expect(Set(environment.keys) == wanted.union(["NATS_NODE"]), "\(node): \(environment.keys.sorted())")
            #expect(environment["NATS_NODE"] == node)
        }
        // The node refuses to start when one of these is empty or weak: the same list.
        let entrypoint = try ComposeEnvironmentTests.text("compose/cluster/nats/entrypoint.sh")
        let required = try #require(entrypoint.firstMatch(of: /\nrequired=" ([A-Z_ ]+) "\n/)).output.1
        #expect(Set(required.split(separator: " ").map(String.init)) == wanted)
    }

    /// What the single box's compose passes a service, the cluster passes each of its instances
    /// (a setting added to one and not the other would silently not apply on the cluster).
    @Test func eachInstanceIsPassedWhatTheSingleBoxPassesItsService() throws {
        let singleBox = try ComposeEnvironmentTests.compose()
        var missing: [String] = []
        var extra: [String] = []
        for service in Self.partitioned + Self.single {
            let box = Set(ComposeEnvironmentTests.environment(of: service, in: singleBox).keys)
            let instances = try Self.services.keys.filter { $0 == service || $0.hasPrefix("\(service)-") }
            #expect(!instances.isEmpty, "no instance of \(service)")
            for instance in instances {
                let passed = Set(try Self.environment(instance).keys)
                missing += box.subtracting(Self.singleBoxOnly).subtracting(passed).sorted().map { "\(instance): \($0)" }
                extra += passed.subtracting(box).subtracting(Self.clusterOnly).sorted().map { "\(instance): \($0)" }
            }
        }
        #expect(missing.isEmpty, "the single box passes these, the cluster does not: \(missing)")
        #expect(extra.isEmpty, "the cluster passes these, the single box does not: \(extra)")
    }

    /// Every `${VARIABLE}` the cluster's compose reads is in its example file, and the example
    /// sets nothing compose ignores.
    @Test func envExampleHasExactlyTheVariablesComposeReads() throws {
        // `$${…}` is the container's own variable (a healthcheck's), not compose's.
        let compose = try ComposeEnvironmentTests.text("compose/cluster/docker-compose.yml")
            .replacingOccurrences(of: "$${", with: "")
        let read = Set(compose.matches(of: /\$\{([A-Z0-9_]+)/).map { String($0.output.1) })
        let example = Set(
            try ComposeEnvironmentTests.text("compose/cluster/.env.example").components(separatedBy: "\n")
                .filter { !$0.hasPrefix("#") }
                .compactMap { line in line.firstMatch(of: /^([A-Z0-9_]+)=/).map { String($0.output.1) } })
        #expect(
            read.subtracting(example).isEmpty,
            "compose/cluster/.env.example lacks \(read.subtracting(example).sorted())")
        #expect(example.subtracting(read).isEmpty, "compose ignores \(example.subtracting(read).sorted())")
    }

    /// The partition of the smoke test's walkers, as compose/cluster/smoke.sh states them.
    @Test func theSmokeTestsWalkersAreRoutedWhereItSays() throws {
        let smoke = try ComposeEnvironmentTests.text("compose/cluster/smoke.sh")
        #expect(smoke.contains("alice to\n# partition 1, bob and carol to partition 0"))
        #expect(WalkerPartition.of(try WalkerID("alice"), count: 2) == 1)
        #expect(WalkerPartition.of(try WalkerID("bob"), count: 2) == 0)
        #expect(WalkerPartition.of(try WalkerID("carol"), count: 2) == 0)
    }
}
