import Foundation

/// The hostile HTTP run's sign-up attempts: a fixed, interleaved mix of bodies web cannot read,
/// rule breakers, duplicates of existing accounts in other cases, good sign-ups each from an
/// address of its own, and a flood of good sign-ups from one address. Each says what web may
/// answer it.
struct SignUpAttempt: Sendable {
    enum Kind: String, CaseIterable, Sendable {
        /// Refused before the limits (413, 415, 400 without touching a bucket).
        case unreadable
        /// A well-formed body that breaks a rule: 400, or 429 once its address or name is spent.
        case ruleBreaking
        /// A taken name or e-mail in another case: 409, or 429 once spent.
        case duplicate
        /// A good sign-up from its own address: 201, always.
        case fresh
        /// A good sign-up from the one flooding address: 201 until its bucket is empty, then 429.
        case flood
    }

    let kind: Kind
    let address: String
    let body: [UInt8]
    let contentType: String?
    /// The account a good sign-up would make.
    var username: String?

    var allowed: Set<Int> {
        switch kind {
        case .unreadable: [400, 413, 415]
        case .ruleBreaking: [400, 429]
        case .duplicate: [409, 429]
        case .fresh: [201]
        case .flood: [201, 429]
        }
    }

    static let password = "walk-safe-1"
    /// Accounts made before the run, for the duplicates to collide with.
    static let seeds = ["seed0", "seed1", "seed2"]
    static let floodingAddress = "203.0.113.7"

    /// `count` attempts; out of every hundred, 25 unreadable, 25 rule-breaking, 25 duplicates,
    /// 1 fresh and 24 flooding.
    static func mix(count: Int) -> [SignUpAttempt] {
        (0..<count).map { index in
            switch index % 100 {
            case 0..<25: unreadable(index)
            case 25..<50: ruleBreaking(index)
            case 50..<75: duplicate(index)
            case 75: good(.fresh, "fresh\(index / 100)", from: "10.9.\(index / 100 / 250).\(index / 100 % 250 + 1)")
            default: good(.flood, "flood\(index)", from: floodingAddress)
            }
        }
    }

    static func json(_ fields: [String: String]) -> [UInt8] {
        Array((try? JSONEncoder().encode(fields)) ?? Data())
    }

    static let jsonType = "application/json"

    static func unreadable(_ index: Int) -> SignUpAttempt {
        let good = json(["username": "u\(index)", "email": "u\(index)@example.org", "password": password])
        let nested = String(repeating: #"{"a":"#, count: 2_000) + "1" + String(repeating: "}", count: 2_000)
        let (body, type): ([UInt8], String?) =
            switch index % 10 {
            case 0: (Array(#"{"username":"u"#.utf8) + [0xC3, 0x28, 0xFF] + Array(#""}"#.utf8), jsonType)
            case 1: ([0x7B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x3A, 0x31, 0x7D], jsonType)  // a lone surrogate
            case 2: (good, "text/plain")
            case 3: (good, nil)
            case 4: (good, "application/json; charset=latin1")
            case 5: (good + Array(repeating: 0x20, count: 17_000), jsonType)
            case 6: (Array(String(repeating: "[", count: 8_000).utf8), jsonType)
            case 7: (Array(nested.utf8), jsonType)
            case 8: (Array(#"{"username":["u"],"email":"u@example.org","password":"walk-safe-1"}"#.utf8), jsonType)
            default: (Array(#"{"username":"u","email":"u@example.org""#.utf8), jsonType)
            }
        return SignUpAttempt(kind: .unreadable, address: "192.0.2.\(index % 200 + 1)", body: body, contentType: type)
    }

    static func ruleBreaking(_ index: Int) -> SignUpAttempt {
        let name = "r\(index)"
        let email = "\(name)@example.org"
        let reserved = ["WatchDog", "ADMIN", "Broker-Admin", "root", "_accounts"][index / 10 % 5]
        let (username, address, secret): (String, String, String) =
            switch index % 10 {
            case 0: (reserved, email, password)
            case 1: ("a b\(index)", email, password)
            case 2: ("\(name)/#+", email, password)
            case 3: ("wälker\(index)", email, password)
            case 4: (String(repeating: "x", count: 65 + index % 100), email, password)
            case 5: (name, "\(name)@localhost", password)
            case 6: (name, "\(name)\u{200B}@example.org", password)
            case 7: (name, email, "short1!")
            case 8: (name, email, "walk\u{0}safe-1")
            default: ("\u{0}\(name)", email, password)
            }
        // A few dozen attempts per address: all but the first five of each meet its limit.
        return SignUpAttempt(
            kind: .ruleBreaking, address: "198.51.100.\(index / 10 % 250 + 1)",
            body: json(["username": username, "email": address, "password": secret]), contentType: jsonType)
    }

    static func duplicate(_ index: Int) -> SignUpAttempt {
        let seed = seeds[index % seeds.count]
        let (username, email) =
            index % 2 == 0
            ? (seed.uppercased(), "d\(index)@example.org") : ("d\(index)", "\(seed.capitalized)@EXAMPLE.org")
        return SignUpAttempt(
            kind: .duplicate, address: "100.64.\(index / 1000).\(index / 5 % 200 + 1)",
            body: json(["username": username, "email": email, "password": password]), contentType: jsonType)
    }

    /// A good sign-up for a new name.
    static func good(_ kind: Kind, _ name: String, from address: String) -> SignUpAttempt {
        SignUpAttempt(
            kind: kind, address: address,
            body: json(["username": name, "email": "\(name)@example.org", "password": password]),
            contentType: jsonType, username: name)
    }
}
