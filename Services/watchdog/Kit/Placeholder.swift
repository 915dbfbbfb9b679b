/// Placeholder until the watchdog issue lands; replace with the service's parts.
enum WatchdogKitPlaceholder {}
