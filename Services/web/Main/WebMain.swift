import SafeWalkService
import SafeWalkWebKit

/// `web`: the only HTTP edge — sign-up, sessions, password change, OwnTracks set-up and account
/// deletion (docs/services/web.md, docs/openapi.json).
@main
struct WebMain {
    static func main() async {
        await ServiceRunner.run(Web.name) { context in
            // broker-admin and the erasing services are reached over the broker; the answer
            // topics are read before the HTTP side starts taking requests.
            let broker = try await BrokerAccounts.connect(
                bus: context.bus, prefix: context.configuration.topicPrefix, logger: context.logger)
            return [broker] + (try await Web.services(context, keeper: broker, eraser: broker))
        }
    }
}
