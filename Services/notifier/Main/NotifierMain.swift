import SafeWalkService

/// `notifier`: connects to the broker, announces itself on `safewalk/_service/notifier` and waits.
/// Its own behaviour arrives with its issue; see docs/ARCHITECTURE.md.
@main
struct NotifierMain {
    static func main() async {
        await ServiceRunner.run(.notifier) { _ in [] }
    }
}
