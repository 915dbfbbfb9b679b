import SafeWalkCore

extension Accounts {
    /// `POST /v1/accounts`: rate limits, the rules, uniqueness regardless of case, the hash, the
    /// row (`pending`), then the broker login; the account is `active` once broker-admin has made
    /// it. If the login cannot be made the row goes again, so a retry starts clean.
    public func signUp(username: String, email: String, password: String, client: String) async throws -> Account {
        var attempts: [(RateLimits.Scope, String)] = [(.signUpPerAddress, client)]
        if let key = UsernameRule.lookupKey(username) { attempts.append((.signUpPerAccount, key)) }
        try admit(attempts)
        let form: SignUpForm
        do {
            form = try SignUpForm(username: username, email: email, password: password)
        } catch {
            throw APIError.field(error)
        }
        // Checked before hashing, so a taken name costs no hash; checked again with the insert.
        try refuse(try await database.taken(usernameKey: form.usernameKey, emailKey: form.emailKey))
        let hash = try await passwords.hash(form.password)
        let created = now()
        try refuse(try await database.insertPending(form, hash: hash, at: created))
        let result = await command(.createWalker, form.username, password: form.password)
        guard let result, result.ok else {
            try await database.deleteAccount(key: form.usernameKey)
            if result?.error == .exists { throw APIError.field(FieldError(.username, .taken)) }
            throw APIError.unavailable
        }
        try await database.setState(.active, key: form.usernameKey)
        logger.info("account created", metadata: ["walker": "\(form.username)"])
        return Account(
            username: form.username, email: form.email, passwordHash: hash, state: .active, createdAt: created)
    }

    private func refuse(_ outcome: WebDatabase.InsertOutcome?) throws(APIError) {
        switch outcome {
        case .usernameTaken: throw .field(FieldError(.username, .taken))
        case .emailTaken: throw .field(FieldError(.email, .taken))
        case .inserted, nil: return
        }
    }
}
