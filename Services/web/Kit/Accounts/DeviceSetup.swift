extension Accounts {
    /// `GET /v1/accounts/{user}/owntracks`: a fresh password for the device login `{w}.owntracks`
    /// (the previous one stops working), and the OwnTracks configuration that uses it. The device
    /// never holds the account's password, so losing the phone costs only this login.
    public func ownTracks(session: Session) async throws -> OwnTracksSetup {
        try admit([(.deviceSetupPerAccount, session.usernameKey)])
        let password = Secrets.devicePassword()
        guard let result = await command(.setDevicePassword, session.username, password: password), result.ok else {
            throw APIError.unavailable
        }
        let config = OwnTracksConfiguration(
            walker: session.username, devicePassword: password, broker: settings.publicBroker)
        logger.info("device login issued", metadata: ["walker": "\(session.username)"])
        return OwnTracksSetup(config: config, link: try config.link())
    }
}
