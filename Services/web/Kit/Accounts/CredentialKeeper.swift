import SafeWalkCore

/// What `web` asks of broker-admin, which alone holds the broker's dynamic-security admin login:
/// one ``AccountCommand``, one ``AccountCommandResult``. In the service it travels over MQTT
/// (`_accounts/command` → `_accounts/result`, matched by `id`); tests use an in-memory keeper.
///
/// An implementation should give up after a few seconds by throwing; callers also bound the wait
/// (``Deadline``), so a keeper that never answers turns into a 503, never a hung request.
public protocol CredentialKeeper: Sendable {
    func run(_ command: AccountCommand) async throws -> AccountCommandResult
}

/// What `web` asks of each service when an account is deleted: erase everything about one walker
/// (`_accounts/erase/{service}` → `_accounts/erased/{service}`, matched by `id`). Erasing is
/// idempotent, so asking again after a lost answer is safe.
public protocol Eraser: Sendable {
    func erase(_ request: EraseRequest, at service: ServiceName) async throws -> EraseReport
}

/// Why a collaborator gave no usable answer.
public enum CollaboratorError: Error, Hashable, Sendable {
    /// No answer within the wait (seconds).
    case timedOut(seconds: Double)
}

/// The services that erase a walker, in the order the design asks them: the watchdog alone first
/// (it refuses while an incident is open), then the rest together.
public enum ErasingServices {
    public static let brokerAdmin = ServiceName(validating: "broker-admin")!
    public static let first: ServiceName = .watchdog
    public static let rest: [ServiceName] = [
        brokerAdmin, .locationIngest, .companionChat, .notifier, .contactsStore,
    ]
}
