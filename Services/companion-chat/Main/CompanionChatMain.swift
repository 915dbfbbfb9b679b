import SafeWalkService

/// `companion-chat`: connects to the broker, announces itself on `safewalk/_service/companion-chat` and waits.
/// Its own behaviour arrives with its issue; see docs/ARCHITECTURE.md.
@main
struct CompanionChatMain {
    static func main() async {
        await ServiceRunner.run(.companionChat) { _ in [] }
    }
}
