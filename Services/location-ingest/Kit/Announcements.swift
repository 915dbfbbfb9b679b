import SafeWalkCore

/// What the publisher stage sends after a commit: the newest position of each walker that
/// advanced, and the walkers whose OwnTracks app went or came back (their word is read from
/// ``IngestCore`` when it is sent, so it is the latest).
struct Announcements: Sendable {
    var positions: [WalkerID: PositionUpdate] = [:]
    var presence: Set<WalkerID> = []

    @Sendable static func merge(_ into: inout Announcements, _ other: Announcements) {
        PositionPublisher.merge(&into.positions, other.positions)
        into.presence.formUnion(other.presence)
    }
}
