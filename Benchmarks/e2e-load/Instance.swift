import SafeWalkCore

/// One process of the stack under test: a service, or one watchdog of several, each owning the
/// walkers the NATS nodes route to its partition (docs/SCALING.md, "Walkers partitioned over
/// watchdogs"). Its name (`watchdog-1`) names its data directory, log and client id.
struct Instance: Hashable, Sendable, CustomStringConvertible {
    let service: ServiceName
    /// The watchdog's partition when there are several; nil for every other instance.
    let partition: Int?

    init(_ service: ServiceName, partition: Int? = nil) {
        self.service = service
        self.partition = partition
    }

    var description: String { partition.map { "\(service)-\($0)" } ?? service.rawValue }

    /// Every instance of `services`, the watchdog as `watchdogs` partitions when more than one.
    static func all(_ services: [ServiceName], watchdogs: Int) -> [Instance] {
        services.flatMap { service in
            service == .watchdog && watchdogs > 1
                ? (0..<watchdogs).map { Instance(service, partition: $0) } : [Instance(service)]
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
