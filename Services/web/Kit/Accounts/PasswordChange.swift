extension Accounts {
    /// `PUT /v1/accounts/{user}/password`: the old password proves it is the person, not only
    /// their browser; the new one must pass the rule. The broker login changes first (a phone
    /// signs in to the broker with it); every other session of the account ends.
    public func changePassword(session: Session, tokenHash: String, old: String, new: String) async throws {
        try admit([(.signInPerAccount, session.usernameKey)])
        do {
            try PasswordRule.check(new, as: .newPassword)
        } catch {
            throw APIError.field(error)
        }
        guard let account = try await database.account(key: session.usernameKey), account.state == .active else {
            throw APIError.unauthenticated
        }
        guard try await passwords.verify(old, against: account.passwordHash) else {
            throw APIError.field(FieldError(.oldPassword, .incorrect))
        }
        let hash = try await passwords.hash(new)
        guard let result = await command(.setPassword, account.username, password: new), result.ok else {
            throw APIError.unavailable
        }
        try await database.setPasswordHash(hash, key: account.usernameKey)
        await revoke(try await database.deleteSessions(key: account.usernameKey, except: tokenHash))
        logger.info("password changed", metadata: ["walker": "\(account.username)"])
    }
}
