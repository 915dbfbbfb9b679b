/// Placeholder until the notifier issue lands; replace with the service's parts.
enum NotifierKitPlaceholder {}
