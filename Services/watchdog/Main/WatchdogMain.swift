import SafeWalkService
import WatchdogKit

/// `watchdog`: watches every walker, prompts for check-ins and escalates (see docs/services/watchdog.md).
@main
struct WatchdogMain {
    static func main() async {
        await ServiceRunner.run(.watchdog) { context in try await Watchdog.services(context) }
    }
}
