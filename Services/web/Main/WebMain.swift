import SafeWalkService
import SafeWalkWebKit

/// `web`: the only HTTP edge — sign-up, sessions, password change, OwnTracks set-up and account
/// deletion (docs/services/web.md, docs/openapi.json).
@main
struct WebMain {
    static func main() async {
        await ServiceRunner.run(Web.name) { context in
            // broker-admin and the erasing services are reached over MQTT (issue 17's broker side);
            // until that keeper and eraser are wired in here, every command fails and sign-up,
            // OwnTracks set-up and deletion answer 503.
            try await Web.services(context, keeper: NotConnectedBroker(), eraser: NotConnectedBroker())
        }
    }
}
