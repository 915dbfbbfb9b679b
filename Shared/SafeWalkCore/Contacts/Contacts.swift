/// A request to add a contact (`{w}/contacts/add`).
public struct ContactAdd: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    public var name: String
    /// As typed; the store normalises it.
    public var phone: String
    /// The ladder tier that reaches this contact: 1 (absent: told at once) or 2 (a backup, told
    /// only if nobody in tier 1 says "I'm on it" in time).
    public var tier: Int?

    public init(name: String, phone: String, tier: Int? = nil) {
        self.name = name
        self.phone = phone
        self.tier = tier
    }
}

/// A request to remove a contact (`{w}/contacts/remove`).
public struct ContactRemove: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    public var id: String

    public init(id: String) { self.id = id }
}

/// One stored contact.
public struct Contact: Codable, Hashable, Sendable {
    public var id: String
    public var name: String
    /// The normalised number when dialable; otherwise the number as typed, so the walker
    /// can see and fix it.
    public var phone: String
    public var dialable: Bool
    /// Why the number cannot be dialled; nil when it can.
    public var reason: UndialableReason?
    /// 2 for a backup ("only if nobody answers"); absent for tier 1, told at once.
    public var tier: Int?

    public init(
        id: String, name: String, phone: String, dialable: Bool, reason: UndialableReason?, tier: Int? = nil
    ) {
        self.id = id
        self.name = name
        self.phone = phone
        self.dialable = dialable
        self.reason = reason
        self.tier = tier
    }

    /// A contact whose number is normalised with ``PhoneNumber/normalise(_:minimumDigits:)``.
    public init(id: String, name: String, rawPhone: String, tier: Int? = nil) {
        switch PhoneNumber.normalise(rawPhone) {
        case .dialable(let number):
            self.init(id: id, name: name, phone: number, dialable: true, reason: nil, tier: tier)
        case .undialable(let reason):
            self.init(id: id, name: name, phone: rawPhone, dialable: false, reason: reason, tier: tier)
        }
    }

    /// The ladder tier that reaches this contact: 2 for a backup, 1 for everyone else.
    public var ladderTier: Int { tier == 2 ? 2 : 1 }
}

/// The walker's whole contact list (`{w}/contacts`, retained).
public struct ContactList: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    public var contacts: [Contact]

    public init(contacts: [Contact]) { self.contacts = contacts }
}

/// The answer to one add or remove (`{w}/contacts/result`):
/// `{"v":1,"operation":"add","ok":true,"contactId":"c1"}` or
/// `{"v":1,"operation":"add","ok":false,"error":"The number contains letters."}`.
public struct ContactResult: Codable, Hashable, Sendable {
    public enum Operation: String, Hashable, Sendable, Codable { case add, remove }
    public enum Outcome: Hashable, Sendable {
        case ok(contactID: String?)
        case failed(message: String)
    }

    public var operation: Operation
    public var outcome: Outcome

    public init(operation: Operation, outcome: Outcome) {
        self.operation = operation
        self.outcome = outcome
    }

    private enum CodingKeys: String, CodingKey { case v, operation, ok, contactId, error }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        _ = try c.decode(SchemaVersion.self, forKey: .v)
        operation = try c.decode(Operation.self, forKey: .operation)
        if try c.decode(Bool.self, forKey: .ok) {
            outcome = .ok(contactID: try c.decodeIfPresent(String.self, forKey: .contactId))
        } else {
            outcome = .failed(message: try c.decode(String.self, forKey: .error))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(SchemaVersion(), forKey: .v)
        try c.encode(operation, forKey: .operation)
        switch outcome {
        case .ok(let contactID):
            try c.encode(true, forKey: .ok)
            try c.encodeIfPresent(contactID, forKey: .contactId)
        case .failed(let message):
            try c.encode(false, forKey: .ok)
            try c.encode(message, forKey: .error)
        }
    }
}
