import ContactsStoreKit
import SafeWalkService

/// `contacts-store`: keeps each walker's trusted contacts in SQLite and publishes the list
/// retained on `{p}/{w}/contacts`. See docs/services/contacts-store.md.
@main
struct ContactsStoreMain {
    static func main() async {
        await ServiceRunner.run(.contactsStore) { context in try await ContactsStore.services(context) }
    }
}
