import LocationIngestKit
import SafeWalkService

/// `location-ingest`: validates fixes from `{p}/+/fix` and `owntracks/+/+`, keeps history in
/// SQLite and publishes each walker's retained position. See docs/services/location-ingest.md.
@main
struct LocationIngestMain {
    static func main() async {
        await ServiceRunner.run(.locationIngest) { context in try await LocationIngest.services(context) }
    }
}
