import SafeWalkCore

/// The sizes of one run, with `--quick`'s smaller defaults for anything not given.
struct CirclePlan: Equatable, Sendable {
    var users: Int
    var followers: Int
    var escalations: Int
    var escalationRate: Double
    var incidents: Int
    var seconds: Double
    var dropSeconds: Double
    var interval: Double
    var window: Int

    /// Who follows whom: user `u` follows the next `followers` users round a ring and makes them
    /// all SOS contacts, so every user has `followers` SOS contacts and as many followers.
    func sosContacts(of user: Int) -> [Int] {
        (1...followers).map { (user + $0) % users }
    }

    /// The users shown `walker`'s incident: its SOS contacts (the viewers of its live view).
    func viewers(of walker: Int) -> Set<Int> { Set(sosContacts(of: walker)) }

    static func walker(_ index: Int) -> WalkerID { WalkerID(validating: "u\(index)")! }

    /// The index back from a walker id made by ``walker(_:)``; nil for anyone else.
    static func index(of walker: Substring) -> Int? {
        guard walker.first == "u" else { return nil }
        return Int(walker.dropFirst())
    }

    /// Commands the set-up sends: every follow, then every accept, then every SOS mark.
    var setupCommands: Int { 3 * users * followers }
}
