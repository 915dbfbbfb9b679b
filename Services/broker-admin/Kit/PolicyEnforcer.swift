import Logging

/// Brings the plugin to ``PluginPolicy`` at start-up and checks that it holds: survey, correct,
/// survey again. A correction that touches the admin's own role gets the admin kicked (its
/// answer is lost, the client reconnects), so corrections are posted without waiting and the
/// next survey, once reconnected, is the proof.
public struct PolicyEnforcer: Sendable {
    let plugin: any DynamicSecurity
    let admin: String
    let logger: Logger
    let attempts: Int

    public init(plugin: any DynamicSecurity, admin: String, logger: Logger, attempts: Int = 5) {
        self.plugin = plugin
        self.admin = admin
        self.logger = logger
        self.attempts = attempts
    }

    /// Throws ``BrokerAdminError/policyNotEnforced`` when the plugin still does not comply after
    /// `attempts` rounds: `broker-admin` must not create walkers on a plugin that would let
    /// them read each other.
    public func enforce() async throws {
        for attempt in 1...attempts {
            do {
                let corrections = try await survey()
                if corrections.isEmpty {
                    logger.info("plugin policy in force", metadata: ["attempt": "\(attempt)"])
                    return
                }
                logger.notice(
                    "correcting the plugin's policy", metadata: ["commands": "\(corrections.map(\.description))"])
                try await plugin.post(corrections)
            } catch let error as DynamicSecurityError {
                logger.warning("plugin survey unanswered", metadata: ["attempt": "\(attempt)", "error": "\(error)"])
            }
        }
        throw BrokerAdminError.policyNotEnforced(attempts: attempts)
    }

    /// What the plugin reports now, and the commands that would correct it.
    private func survey() async throws -> [ControlCommand] {
        let first = try await plugin.perform(PluginPolicy.survey(admin: admin))
        let defaults = first.compactMap { $0.data?.acls }.first ?? []
        let roleNames = PluginPolicy.adminRoles(from: first)
        let roles =
            roleNames.isEmpty
            ? [] : try await plugin.perform(roleNames.map { .getRole(name: $0) }).compactMap(\.data?.role)
        return PluginPolicy.corrections(defaults: defaults, roles: roles)
    }
}

/// Why `broker-admin` stopped.
public enum BrokerAdminError: Error, Hashable, Sendable {
    /// The plugin's defaults or the admin's roles could not be brought to ``PluginPolicy``.
    case policyNotEnforced(attempts: Int)
}
