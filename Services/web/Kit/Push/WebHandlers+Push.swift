import Hummingbird

/// `GET`, `PUT` and `DELETE /v1/app/push` (docs/services/web.md, "Web Push").
extension WebHandlers {
    struct PushKeyAnswer: Codable { var publicKey: String }

    func pushKey() throws -> Response {
        guard let push else { throw APIError.notFound }
        return try JSONResponse.make(PushKeyAnswer(publicKey: push.vapid.publicKey))
    }

    /// Keeps the browser's subscription for the session's account: 204.
    func pushSubscribe(_ request: Request) async throws -> Response {
        guard let push else { throw APIError.notFound }
        let (session, _) = try await sessions.require(request, user: nil)
        let subscription = try PushBody.subscription(try await PushBody.read(request), settings: push.settings)
        try await push.database.savePushSubscription(
            subscription, usernameKey: session.usernameKey, limit: push.settings.perAccount, at: push.now())
        return JSONResponse.empty()
    }

    /// Forgets one of the account's subscriptions (the page unsubscribed, or signs out): 204,
    /// also when there was none (the wanted state holds).
    func pushUnsubscribe(_ request: Request) async throws -> Response {
        guard let push else { throw APIError.notFound }
        let (session, _) = try await sessions.require(request, user: nil)
        let endpoint = try PushBody.string(try await PushBody.read(request), "endpoint", .endpoint)
        try await push.database.deletePushSubscription(endpoint: endpoint, usernameKey: session.usernameKey)
        return JSONResponse.empty()
    }
}
