import Foundation
import SafeWalkCore

/// What a message on `_accounts/command` turned out to be. Pure: every rule `broker-admin`
/// applies before it touches the plugin.
public enum AccountIntake: Hashable, Sendable {
    /// A command to carry out; `password` is present exactly when the operation needs one.
    case accepted(AccountCommand)
    /// Refused; answered `refused` on `_accounts/result` when `id` could be read.
    case refused(AccountRefusal, id: String?)

    /// Commands are a few hundred bytes; anything bigger is refused unread.
    public static let maxBytes = 4 * 1024
    /// Characters in a password. `web` applies the sign-up rule (digit, special character);
    /// this is only the bound a broker login must keep.
    public static let passwordLength = 8...256

    public static func read(_ payload: Data, retained: Bool = false) -> AccountIntake {
        if retained { return .refused(.retained, id: payload.count <= maxBytes ? readableID(in: payload) : nil) }
        let command: AccountCommand
        do {
            command = try SafeWalkJSON.decode(AccountCommand.self, from: payload, maxBytes: maxBytes)
        } catch {
            let id = payload.count <= maxBytes ? readableID(in: payload) : nil
            return .refused(.unreadable(error), id: id)
        }
        guard let id = CryForHelp.usableID(command.id) else { return .refused(.invalidID, id: nil) }
        if let refusal = check(command) { return .refused(refusal, id: id) }
        var accepted = command
        if !AccountCommand.needsPassword(command.op) { accepted.password = nil }
        if !AccountCommand.needsSession(command.op) { accepted.session = nil }
        return .accepted(accepted)
    }

    /// The rules a decoded command must pass: the name, the session id, then the password.
    static func check(_ command: AccountCommand) -> AccountRefusal? {
        if let refusal = AccountNames.refusal(for: command.user) { return refusal }
        if AccountCommand.needsSession(command.op) {
            guard let session = command.session, AccountCommand.isSessionID(session) else { return .invalidSession }
        }
        guard AccountCommand.needsPassword(command.op) else { return nil }
        guard let password = command.password else { return .missingPassword }
        guard passwordLength.contains(password.count), !password.unicodeScalars.contains("\u{0}") else {
            return .invalidPassword
        }
        return nil
    }

    /// The `id` of a payload that is a JSON object but not a valid command, so `web` still gets
    /// its answer. Action ids and command ids follow the same rule (`CryForHelp.usableID`).
    static func readableID(in payload: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any] else { return nil }
        return CryForHelp.usableID(object["id"] as? String)
    }
}

/// What a message on `_accounts/erase/broker-admin` turned out to be. Pure.
public enum EraseIntake: Hashable, Sendable {
    case accepted(EraseRequest)
    /// Refused and not reported on: a report needs a readable id and walker (`web` asks again).
    case refused(AccountRefusal)

    public static func read(_ payload: Data, retained: Bool = false) -> EraseIntake {
        if retained { return .refused(.retained) }
        let request: EraseRequest
        do {
            request = try SafeWalkJSON.decode(EraseRequest.self, from: payload, maxBytes: AccountIntake.maxBytes)
        } catch {
            return .refused(.unreadable(error))
        }
        guard CryForHelp.usableID(request.id) != nil else { return .refused(.invalidID) }
        if let refusal = AccountNames.refusal(for: request.user) { return .refused(refusal) }
        return .accepted(request)
    }
}
