/// Placeholder until the location-ingest issue lands; replace with the service's parts.
enum LocationIngestKitPlaceholder {}
