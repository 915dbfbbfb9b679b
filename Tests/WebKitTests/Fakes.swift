import SafeWalkCore
import SafeWalkWebKit
import Synchronization

/// broker-admin as a dictionary: the commands web sent and the logins they left.
final class FakeBrokerAdmin: CredentialKeeper {
    struct State {
        var commands: [AccountCommand] = []
        var logins: [String: String] = [:]
        var devices: [String: String] = [:]
        var disabled: Set<String> = []
        /// The app sessions' logins: `{w}.app-{session}` → password.
        var sessions: [String: String] = [:]
        /// Every command throws, as a broker-admin that is down would.
        var down = false
        /// These commands are carried out, then their answer is lost (the caller times out).
        var lostAnswers: Set<AccountCommand.Operation> = []
    }

    let state = Mutex(State())

    func run(_ command: AccountCommand) async throws -> AccountCommandResult {
        try state.withLock { state throws(CollaboratorError) in
            state.commands.append(command)
            if state.down { throw .timedOut(seconds: 5) }
            let user = command.user.rawValue
            func failure(_ error: AccountCommandResult.Failure) -> AccountCommandResult {
                AccountCommandResult(id: command.id, ok: false, error: error)
            }
            switch command.op {
            case .createWalker:
                if state.logins[user] != nil { return failure(.exists) }
                state.logins[user] = command.password
            case .setPassword:
                if state.logins[user] == nil { return failure(.notFound) }
                state.logins[user] = command.password
            case .disable: state.disabled.insert(user)
            case .enable: state.disabled.remove(user)
            case .setDevicePassword: state.devices[user] = command.password
            case .deleteDevice: state.devices[user] = nil
            case .createSession:
                if state.logins[user] == nil { return failure(.notFound) }
                state.sessions[AccountCommand.sessionUsername(for: command.user, session: command.session!)] =
                    command.password
            case .deleteSession:
                state.sessions[AccountCommand.sessionUsername(for: command.user, session: command.session!)] = nil
            }
            if state.lostAnswers.contains(command.op) { throw .timedOut(seconds: 5) }
            return AccountCommandResult(id: command.id, ok: true)
        }
    }

    /// The account operations asked, in order; the app sessions' logins apart (``sessionCommands``).
    var operations: [AccountCommand.Operation] {
        state.withLock { $0.commands.map(\.op) }.filter { !AccountCommand.needsSession($0) }
    }

    /// `createSession` and `deleteSession`, in order.
    var sessionCommands: [AccountCommand] {
        state.withLock { $0.commands }.filter { AccountCommand.needsSession($0.op) }
    }

    /// The session logins that exist now.
    var sessionLogins: Set<String> { state.withLock { Set($0.sessions.keys) } }
}

/// The five services and the watchdog, erasing from a dictionary; each can refuse or stay silent.
final class FakeServices: Eraser {
    struct State {
        var refusals: [ServiceName: EraseReport.Failure] = [:]
        var silent: Set<ServiceName> = []
        var asked: [ServiceName] = []
        var erased: [ServiceName: Set<String>] = [:]
    }

    let state = Mutex(State())

    func erase(_ request: EraseRequest, at service: ServiceName) async throws -> EraseReport {
        let (silent, refusal) = state.withLock { state in
            state.asked.append(service)
            return (state.silent.contains(service), state.refusals[service])
        }
        // Never answers: the caller's deadline cancels this sleep.
        if silent { try await Task.sleep(for: .seconds(3_600)) }
        if let refusal { return EraseReport(id: request.id, user: request.user, ok: false, error: refusal) }
        state.withLock { _ = $0.erased[service, default: []].insert(request.user.rawValue) }
        return EraseReport(id: request.id, user: request.user, ok: true)
    }

    var asked: [ServiceName] { state.withLock { $0.asked } }
    func erased(_ walker: String) -> Set<ServiceName> {
        state.withLock { state in Set(state.erased.filter { $0.value.contains(walker) }.keys) }
    }
}

/// The member directory as a dictionary: what `_members/{w}` holds for each user (nil: cleared),
/// and every publication in order. `down` makes every call throw, as a broker that is away would.
final class RecordingMembers: MemberDirectory {
    struct State {
        var retained: [String: Member?] = [:]
        var log: [String] = []
        var down = false
    }

    let state = Mutex(State())

    func publish(_ member: Member) async throws {
        try state.withLock { state throws(CollaboratorError) in
            if state.down { throw .timedOut(seconds: 5) }
            state.retained[member.user.rawValue] = .some(member)
            state.log.append("publish \(member.user)")
        }
    }

    func clear(_ user: WalkerID) async throws {
        try state.withLock { state throws(CollaboratorError) in
            if state.down { throw .timedOut(seconds: 5) }
            state.retained[user.rawValue] = .some(nil)
            state.log.append("clear \(user)")
        }
    }

    /// The record retained for `user` now (nil when cleared or never published).
    func member(_ user: String) -> Member? { state.withLock { $0.retained[user] ?? nil } }
    var log: [String] { state.withLock { $0.log } }
}
