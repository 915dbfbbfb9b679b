import SafeWalkCore

/// One process of the stack under test: a service, or one watchdog or companion of several, each
/// serving the walkers the NATS nodes route to its partition (docs/SCALING.md, "Walkers
/// partitioned"). Its name (`watchdog-1`) names its data directory, log and client id.
struct Instance: Hashable, Sendable, CustomStringConvertible {
    let service: ServiceName
    /// The partition of a partitioned service's instance when there are several; nil otherwise.
    let partition: Int?

    init(_ service: ServiceName, partition: Int? = nil) {
        self.service = service
        self.partition = partition
    }

    var description: String { partition.map { "\(service)-\($0)" } ?? service.rawValue }

    /// Its retained status topic after `_service/`: `watchdog`, or `watchdog/1` for partition 1's
    /// instance (ServiceConfiguration.statusTopic).
    var statusKey: String { partition.map { "\(service)/\($0)" } ?? service.rawValue }

    /// Every instance of `services`, each partitioned one as `partitions` instances when more than one.
    static func all(_ services: [ServiceName], partitions: Int) -> [Instance] {
        services.flatMap { service in
            ServiceName.partitioned.contains(service) && partitions > 1
                ? (0..<partitions).map { Instance(service, partition: $0) } : [Instance(service)]
        }
    }

    /// The service an instance's name (``description``) belongs to, for CPU by service.
    static func serviceName(of name: String) -> String {
        guard let dash = name.lastIndex(of: "-"), name[name.index(after: dash)...].allSatisfy(\.isNumber),
            name.index(after: dash) < name.endIndex
        else { return name }
        return String(name[..<dash])
    }
}
