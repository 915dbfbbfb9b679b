import SafeWalkCore

extension Accounts {
    /// `POST /v1/accounts`: rate limits, the rules, uniqueness regardless of case, the hash, the
    /// row (`pending`), then the broker login; the account is `active` once broker-admin has made
    /// it, and announced on `_members/{w}` (``announce(_:createdAt:)``). If the login cannot be
    /// made the row goes again, so a retry starts clean.
    ///
    /// broker-admin answering `exists` means a login without an account: `web` alone asks for
    /// walker logins and this name has no row, so it is what an earlier attempt left when its
    /// answer was lost (or a deletion stopped half-way). It is taken over (``adoptLogin``), or the
    /// name would be blocked for good by a login nobody can use.
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
        let made = result?.error == .exists ? await adoptLogin(form) : result?.ok == true
        guard made else {
            try await database.deleteAccount(key: form.usernameKey)
            throw APIError.unavailable
        }
        // Announced before the account turns active: only an active account can be deleted, so
        // a deletion's clear always follows this on web's one connection, never overtakes it.
        await announce(form.username, createdAt: created)
        try await database.setState(.active, key: form.usernameKey)
        logger.info("account created", metadata: ["walker": "\(form.username)"])
        return Account(
            username: form.username, email: form.email, passwordHash: hash, state: .active, createdAt: created)
    }

    /// Makes a login left without an account this sign-up's: any device login goes (it was issued
    /// to whoever held the name before), the password becomes this one, and the login is enabled
    /// (a half-done deletion disables it). True when all three are done.
    private func adoptLogin(_ form: SignUpForm) async -> Bool {
        logger.warning("taking over a broker login left without an account", metadata: ["walker": "\(form.username)"])
        for (op, password) in [
            (AccountCommand.Operation.deleteDevice, nil), (.setPassword, form.password), (.enable, nil),
        ] {
            guard await command(op, form.username, password: password)?.ok == true else { return false }
        }
        return true
    }

    private func refuse(_ outcome: WebDatabase.InsertOutcome?) throws(APIError) {
        switch outcome {
        case .usernameTaken: throw .field(FieldError(.username, .taken))
        case .emailTaken: throw .field(FieldError(.email, .taken))
        case .inserted, nil: return
        }
    }
}
