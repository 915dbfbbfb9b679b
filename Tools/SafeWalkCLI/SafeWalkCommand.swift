import ArgumentParser

/// `safewalk`: run the stack, simulate and watch walks, manage users and contacts.
public struct SafeWalkCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "safewalk",
        abstract: "Run, watch and simulate SafeWalk walks; manage broker users, contacts and your circle.",
        discussion: """
            Broker options default to the SAFEWALK_MQTT_HOST, SAFEWALK_MQTT_PORT, \
            SAFEWALK_MQTT_USERNAME and SAFEWALK_MQTT_PASSWORD environment variables, \
            then to 127.0.0.1:1883 without credentials.

            A first demo: `safewalk up` in one terminal, `safewalk watch alice` in a second and \
            `safewalk simulate --walker alice --go-silent-after 20s` in a third.
            """,
        version: "0.1.0",
        subcommands: [
            UpCommand.self, SimulateCommand.self, WatchCommand.self, UserCommand.self,
            ContactCommand.self, CircleGroupCommand.self, NATSUsersCommand.self, NATSMappingsCommand.self,
        ])

    public init() {}
}
