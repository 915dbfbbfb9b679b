import BrokerAdminKit
import Foundation
import SafeWalkService
import Testing

@Suite("Which broker broker-admin keeps the logins of, and its NATS settings")
struct NATSAccountSettingsTests {
    @Test func mosquittoUnlessToldNATSAndNothingElse() throws {
        #expect(try AdminBroker(environment: EnvironmentReader([:])) == .mosquitto)
        #expect(try AdminBroker(environment: EnvironmentReader(["SAFEWALK_ADMIN_BROKER": "nats"])) == .nats)
        #expect(throws: ConfigurationError.self) {
            try AdminBroker(environment: EnvironmentReader(["SAFEWALK_ADMIN_BROKER": "rabbitmq"]))
        }
    }

    @Test func theUsersFileIsRequiredAndTheRestHasDefaults() throws {
        #expect(throws: ConfigurationError.self) { try NATSAccountSettings(environment: EnvironmentReader([:])) }
        let settings = try NATSAccountSettings(
            environment: EnvironmentReader([
                "SAFEWALK_NATS_USERS_FILE": "/config/users.conf", "SAFEWALK_NATS_NODES": "nats1, nats2,,nats3",
            ]))
        #expect(settings.acknowledgements.path == "/config")
        #expect(settings.nodes == ["nats1", "nats2", "nats3"])
        #expect(settings.reloadWait == .seconds(3))
        #expect(settings.bcryptCost == 6)
        #expect(throws: ConfigurationError.self) {
            try NATSAccountSettings(
                environment: EnvironmentReader([
                    "SAFEWALK_NATS_USERS_FILE": "/config/users.conf", "SAFEWALK_NATS_BCRYPT_COST": "3",
                ]))
        }
    }
}
