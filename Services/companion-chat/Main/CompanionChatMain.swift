import CompanionChatKit
import SafeWalkService

/// `companion-chat`: check-in messages, quick-reply answers and a Gemini companion on
/// `safewalk/{w}/chat`. See docs/services/companion-chat.md.
@main
struct CompanionChatMain {
    static func main() async {
        await ServiceRunner.run(.companionChat) { context in try await CompanionChat.services(context) }
    }
}
