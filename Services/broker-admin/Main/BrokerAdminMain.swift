import BrokerAdminKit
import SafeWalkService

/// `broker-admin`: the only holder of the dynamic-security plugin's admin login. Creates and
/// changes walkers' broker logins for `web` and deletes them in an erasure.
/// See docs/services/broker-admin.md.
@main
struct BrokerAdminMain {
    static func main() async {
        await ServiceRunner.run(.brokerAdmin) { context in try await BrokerAdmin.services(context) }
    }
}
