import SafeWalkService

/// `watchdog`: connects to the broker, announces itself on `safewalk/_service/watchdog` and waits.
/// Its own behaviour arrives with its issue; see docs/ARCHITECTURE.md.
@main
struct WatchdogMain {
    static func main() async {
        await ServiceRunner.run(.watchdog) { _ in [] }
    }
}
