/// Placeholder until the contacts-store issue lands; replace with the service's parts.
enum ContactsStoreKitPlaceholder {}
