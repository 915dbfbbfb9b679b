/// Placeholder until the companion-chat issue lands; replace with the service's parts.
enum CompanionChatKitPlaceholder {}
