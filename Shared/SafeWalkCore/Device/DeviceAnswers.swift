/// The watchdog's answer to one action on `{w}/action/result`, published once the action is
/// durably recorded. A device repeats an action (same `id`) until it sees this; repeats are
/// applied once and answered again with the same answer.
public struct ActionResult: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    /// The action's id; absent for a cry for help that came without one.
    public var id: String?
    public var ok: Bool
    public var error: ActionError?
    /// What was wrong with a cry for help that was taken anyway (`missing_version`, …).
    public var warnings: [String]?

    public init(id: String?, ok: Bool, error: ActionError? = nil, warnings: [String]? = nil) {
        self.id = id
        self.ok = ok
        self.error = error
        self.warnings = warnings
    }
}

/// Why an action was not applied.
public struct ActionError: Codable, Hashable, Sendable {
    /// A stable code: `pin_required`, `wrong_pin`, `not_holding`.
    public var code: String
    /// One sentence for the walker.
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public static let pinRequired = ActionError(
        code: "pin_required", message: "Enter your cancel PIN to end the alert.")
    public static let wrongPIN = ActionError(
        code: "wrong_pin", message: "That PIN is not right. Your alert is still on.")
    public static let notHolding = ActionError(
        code: "not_holding", message: "The help button is not being held.")
}
