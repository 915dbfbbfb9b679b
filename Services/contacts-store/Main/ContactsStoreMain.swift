import SafeWalkService

/// `contacts-store`: connects to the broker, announces itself on `safewalk/_service/contacts-store` and waits.
/// Its own behaviour arrives with its issue; see docs/ARCHITECTURE.md.
@main
struct ContactsStoreMain {
    static func main() async {
        await ServiceRunner.run(.contactsStore) { _ in [] }
    }
}
