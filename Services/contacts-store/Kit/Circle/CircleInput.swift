import SafeWalkCore
import SafeWalkMQTT

/// Everything the circle owner's one loop handles, in arrival order.
enum CircleInput: Sendable {
    case message(MQTTMessage)
    /// A deadline came due (check-in request timeout, home safe ending).
    case timer
    /// An account erasure; `done` gets whether it worked.
    case erase(WalkerID, done: @Sendable (Bool) -> Void)
}
