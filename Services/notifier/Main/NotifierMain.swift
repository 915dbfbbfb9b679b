import NotifierKit
import SafeWalkService

/// `notifier`: turns escalations into a device alert, SMS, webhook and log deliveries, exactly
/// once per (escalation, channel, recipient) as far as a crash allows. See docs/services/notifier.md.
@main
struct NotifierMain {
    static func main() async {
        await ServiceRunner.run(.notifier) { context in try await Notifier.services(context) }
    }
}
