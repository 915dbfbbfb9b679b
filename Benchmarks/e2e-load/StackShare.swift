/// One load run's window split by who spent it (issue 22, item 4): the simulated phones apart
/// from the stack they load, the broker's messages per stored fix, and the CPU each fix cost the
/// five services beside what it cost the broker in the same window.
struct StackShare {
    static let services = ["location-ingest", "watchdog", "companion-chat", "notifier", "contacts-store"]

    var phonesPercent: Double
    var servicesPercent: Double
    var brokerPercent: Double
    /// PUBLISH packets the broker received plus those it sent, per fix stored in the window; NaN
    /// on NATS, which has no `$SYS` counters.
    var brokerMessagesPerFix: Double
    var servicesMicrosecondsPerFix: Double
    var brokerMicrosecondsPerFix: Double

    init(_ raw: LoadRun.Raw) {
        let window = raw.windowEnd.at - raw.windowStart.at
        let fixes = raw.fixesStoredInWindow
        func seconds(_ key: String) -> Double { (raw.windowEnd.cpu[key] ?? 0) - (raw.windowStart.cpu[key] ?? 0) }
        // Several watchdogs are `watchdog-0`, `watchdog-1`…: all of them the watchdog's.
        let services = raw.windowEnd.cpu.keys.filter { Self.services.contains(Instance.serviceName(of: $0)) }
            .map(seconds).reduce(0, +)
        // Mosquitto, or every NATS node ("nats-server 0" …): the broker is the cluster.
        let broker = raw.windowEnd.cpu.keys.filter(Self.isBroker).map(seconds).reduce(0, +)
        phonesPercent = 100 * seconds("bench") / window
        servicesPercent = 100 * services / window
        brokerPercent = 100 * broker / window
        let counters = ["$SYS/broker/publish/messages/received", "$SYS/broker/publish/messages/sent"]
        let messages = counters.map { raw.sysIncrease($0) ?? 0 }.reduce(0, +)
        brokerMessagesPerFix = raw.windowEnd.sys.isEmpty ? .nan : messages / fixes
        servicesMicrosecondsPerFix = 1e6 * services / fixes
        brokerMicrosecondsPerFix = 1e6 * broker / fixes
    }

    /// Whether a process of the run (``Cluster/pids()``'s name) is the broker.
    static func isBroker(_ name: String) -> Bool { name == "mosquitto" || name.hasPrefix("nats-server") }
}
