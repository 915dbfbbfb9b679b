import Foundation
import SafeWalkCore

/// A stored contact as the walker typed it; the dialable form is derived on every read, so a
/// better normalisation rule applies to old contacts too.
public struct ContactEntry: Hashable, Sendable {
    public var id: String
    public var name: String
    public var rawPhone: String
    /// The ladder tier that reaches this contact: 1 (told at once) or 2 (a backup).
    public var tier: Int

    public init(id: String, name: String, rawPhone: String, tier: Int = 1) {
        self.id = id
        self.name = name
        self.rawPhone = rawPhone
        self.tier = tier
    }

    /// The contact as published: phone normalised, `dialable` and the reason when not; `tier`
    /// only for a backup, so a tier 1 contact's payload is what it was before tiers existed.
    public var contact: Contact {
        Contact(id: id, name: name, rawPhone: rawPhone, tier: tier == ContactRules.backupTier ? tier : nil)
    }
}

/// Why a command was refused, in words the phone can show as they are.
public enum ContactError: Error, Hashable, Sendable {
    case unreadable(String)
    case emptyName
    case nameTooLong(max: Int)
    case phoneTooLong(max: Int)
    case duplicateName
    case duplicatePhone
    case limitReached(max: Int)
    /// A `tier` other than 1 or 2.
    case invalidTier
    case invalidID
    case notFound
    /// The database refused the write; nothing changed.
    case storageFailed

    public var message: String {
        switch self {
        case .unreadable(let code): "The request could not be read (\(code))."
        case .emptyName: "The contact needs a name."
        case .nameTooLong(let max): "The name is too long (at most \(max) characters)."
        case .phoneTooLong(let max): "The phone number is too long (at most \(max) characters)."
        case .duplicateName: "A contact with this name already exists."
        case .duplicatePhone: "A contact with this number already exists."
        case .limitReached(let max): "You already have \(max) contacts, the most allowed."
        case .invalidTier: "The tier must be 1 (told at once) or 2 (a backup, told only if nobody answers)."
        case .invalidID: "That is not a contact id."
        case .notFound: "No contact has that id."
        case .storageFailed: "The contact could not be saved. Please try again."
        }
    }
}

/// The contact rules, pure: names trimmed (a trailing space is not a new contact), duplicates
/// by name (case-insensitive) or by dialable number refused, a per-walker limit, length limits,
/// a `tier` of 1 or 2.
/// An undialable number is kept, flagged with its reason, so the walker sees it and fixes it.
public struct ContactRules: Hashable, Sendable {
    public var limit: Int
    public var maxNameLength: Int
    public var maxPhoneLength: Int
    public var maxIDLength: Int
    /// `tier` of a contact told at once (also what an absent `tier` means).
    public static let firstTier = 1
    /// `tier` of a backup, told only if nobody in the first tier answers in time.
    public static let backupTier = 2

    public init(limit: Int = 20, maxNameLength: Int = 64, maxPhoneLength: Int = 32, maxIDLength: Int = 64) {
        self.limit = limit
        self.maxNameLength = maxNameLength
        self.maxPhoneLength = maxPhoneLength
        self.maxIDLength = maxIDLength
    }

    /// The entry `request` adds to `entries`, under `id`.
    public func add(_ request: ContactAdd, id: String, to entries: [ContactEntry]) throws(ContactError) -> ContactEntry
    {
        let name = Self.cleanName(request.name)
        if name.isEmpty { throw .emptyName }
        if name.count > maxNameLength { throw .nameTooLong(max: maxNameLength) }
        let phone = request.phone.trimmingCharacters(in: .whitespacesAndNewlines)
        if phone.count > maxPhoneLength { throw .phoneTooLong(max: maxPhoneLength) }
        let tier = request.tier ?? Self.firstTier
        // Refused rather than clamped: a walker who meant "backup" must not be told at once.
        guard tier == Self.firstTier || tier == Self.backupTier else { throw .invalidTier }
        let key = Self.nameKey(name)
        if entries.contains(where: { Self.nameKey($0.name) == key }) { throw .duplicateName }
        let number = Self.phoneKey(phone)
        if entries.contains(where: { Self.phoneKey($0.rawPhone) == number }) { throw .duplicatePhone }
        if entries.count >= limit { throw .limitReached(max: limit) }
        return ContactEntry(id: id, name: name, rawPhone: phone, tier: tier)
    }

    /// `entries` without contact `id`.
    public func remove(id: String, from entries: [ContactEntry]) throws(ContactError) -> [ContactEntry] {
        if id.isEmpty || id.count > maxIDLength { throw .invalidID }
        guard let index = entries.firstIndex(where: { $0.id == id }) else { throw .notFound }
        var remaining = entries
        remaining.remove(at: index)
        return remaining
    }

    /// Trimmed, inner runs of whitespace collapsed to one space, control characters dropped.
    public static func cleanName(_ raw: String) -> String {
        let visible = raw.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) || $0 == "\t" }
        return String(String.UnicodeScalarView(visible))
            .split(whereSeparator: { $0.isWhitespace })
            .joined(separator: " ")
    }

    /// What makes two names the same contact: canonical Unicode form, case-insensitive.
    static func nameKey(_ name: String) -> String {
        cleanName(name).precomposedStringWithCanonicalMapping.lowercased()
    }

    /// What makes two numbers the same: the dialable form, or the typed text when undialable.
    static func phoneKey(_ raw: String) -> String {
        PhoneNumber.normalise(raw).dialable ?? raw.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
