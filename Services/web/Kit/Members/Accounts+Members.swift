import Foundation
import SafeWalkCore

extension Accounts {
    /// Publishes the account's `_members/{w}`, within `settings.commandWait`. True once the
    /// broker has it. A failure is logged, not thrown: the account works without its record, and
    /// web's next start publishes every account again (``MemberRepublisher``).
    @discardableResult
    func announce(_ user: WalkerID, createdAt: Date) async -> Bool {
        let member = Membership.member(user, createdAt: createdAt)
        return await directory("publish", user) { [members] in try await members.publish(member) }
    }

    /// Clears the user's `_members/{w}`, within `settings.commandWait`; true once the broker has
    /// it. A failure is logged: the erasure's next pass, or web's next start, clears it again.
    @discardableResult
    func withdraw(_ user: WalkerID) async -> Bool {
        await directory("clear", user) { [members] in try await members.clear(user) }
    }

    private func directory(
        _ op: String, _ user: WalkerID, _ operation: @escaping @Sendable () async throws -> Void
    ) async -> Bool {
        do {
            try await Deadline.run(settings.commandWait, clock: clock, operation)
            return true
        } catch {
            logger.warning(
                "member directory not updated", metadata: ["op": "\(op)", "walker": "\(user)", "error": "\(error)"])
            return false
        }
    }
}
