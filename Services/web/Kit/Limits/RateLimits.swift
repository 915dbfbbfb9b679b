/// What is limited, and how much. The defaults let a person mistype a few times and a family
/// behind one address sign up together, and stop a script: per address, 5 sign-ups per 10
/// minutes and 20 sign-ins per minute; per account, 10 sign-ins (or password changes) per 5
/// minutes and 10 OwnTracks set-ups per 10 minutes. Configured with `SAFEWALK_RATE_*` (docs/services/web.md).
public struct RateLimits: Hashable, Sendable {
    public enum Scope: String, Hashable, Sendable, CaseIterable {
        /// `POST /v1/accounts`, by client address.
        case signUpPerAddress
        /// `POST /v1/accounts`, by the username asked for.
        case signUpPerAccount
        /// `POST /v1/sessions`, by client address.
        case signInPerAddress
        /// `POST /v1/sessions` and password changes, by account: guesses at one account's
        /// password from many addresses.
        case signInPerAccount
        /// `GET /v1/accounts/{user}/owntracks`, by account: each one makes broker-admin replace the
        /// device login, so a signed-in script must not keep it busy.
        case deviceSetupPerAccount
        /// `GET /i/{token}`, its events and its button, by client address: a token has 128 random
        /// bits, so this is about load, not guessing (a page, its stream and a reconnect or two a
        /// minute is what a contact needs).
        case pagePerAddress
    }

    public var rules: [Scope: RateRule]
    /// Keys remembered per scope (see ``RateLimiter``).
    public var maxKeys: Int

    public init(
        signUpPerAddress: RateRule = .init(burst: 5, per: .seconds(600)),
        signUpPerAccount: RateRule = .init(burst: 5, per: .seconds(600)),
        signInPerAddress: RateRule = .init(burst: 20, per: .seconds(60)),
        signInPerAccount: RateRule = .init(burst: 10, per: .seconds(300)),
        deviceSetupPerAccount: RateRule = .init(burst: 10, per: .seconds(600)),
        pagePerAddress: RateRule = .init(burst: 60, per: .seconds(60)),
        maxKeys: Int = 50_000
    ) {
        rules = [
            .signUpPerAddress: signUpPerAddress, .signUpPerAccount: signUpPerAccount,
            .signInPerAddress: signInPerAddress, .signInPerAccount: signInPerAccount,
            .deviceSetupPerAccount: deviceSetupPerAccount, .pagePerAddress: pagePerAddress,
        ]
        self.maxKeys = maxKeys
    }
}
