import SafeWalkCore

extension Accounts {
    /// An operator (or admin) of the monitoring desk: the sign-up's rules and uniqueness (one
    /// name space with walkers), stored active at once, with no broker login and no `_members`
    /// entry. Only the CLI, writing web's store itself, and an admin at `/ops` call this.
    public func addOperator(username: String, email: String, password: String, role: Account.Role) async throws
        -> Account
    {
        precondition(role.isDesk, "walkers sign up")
        let form: SignUpForm
        do {
            form = try SignUpForm(username: username, email: email, password: password)
        } catch {
            throw APIError.field(error)
        }
        if let taken = try await database.taken(usernameKey: form.usernameKey, emailKey: form.emailKey) {
            throw Self.takenError(taken)
        }
        let hash = try await passwords.hash(form.password)
        let created = now()
        let outcome = try await database.insertOperator(form, hash: hash, role: role, at: created)
        if outcome != .inserted { throw Self.takenError(outcome) }
        logger.notice("desk account created", metadata: ["operator": "\(form.username)", "role": "\(role.rawValue)"])
        return Account(
            username: form.username, email: form.email, passwordHash: hash, state: .active, createdAt: created,
            role: role)
    }

    static func takenError(_ outcome: WebDatabase.InsertOutcome) -> APIError {
        outcome == .emailTaken ? .field(FieldError(.email, .taken)) : .field(FieldError(.username, .taken))
    }
}
