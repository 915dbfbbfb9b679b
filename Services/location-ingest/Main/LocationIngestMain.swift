import SafeWalkService

/// `location-ingest`: connects to the broker, announces itself on `safewalk/_service/location-ingest` and waits.
/// Its own behaviour arrives with its issue; see docs/ARCHITECTURE.md.
@main
struct LocationIngestMain {
    static func main() async {
        await ServiceRunner.run(.locationIngest) { _ in [] }
    }
}
