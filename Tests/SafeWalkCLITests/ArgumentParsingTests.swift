import ArgumentParser
import Testing

@testable import SafeWalkCLI

@Suite struct ArgumentParsingTests {
    @Test func simulateParsesWalkerSilenceAndWalk() throws {
        let command = try SafeWalkCommand.parseAsRoot(
            [
                "simulate", "--walker", "alice", "--go-silent-after", "30s", "--destination", "Library", "--minutes",
                "12",
            ])
        let simulate = try #require(command as? SimulateCommand)
        #expect(simulate.walker == "alice")
        #expect(simulate.goSilentAfter == DurationValue(seconds: 30))
        let (settings, path) = try simulate.simulationSettings(prefix: "safewalk")
        #expect(settings.goSilentAfter == 30)
        #expect(settings.walk?.destination == "Library")
        #expect(settings.walk?.minutes == 12)
        #expect(settings.interval == 5)
        guard case .random = path else { Issue.record("expected a random walk without --route"); return }
    }

    @Test func simulateRefusesContradictoryOptions() {
        for arguments in [
            ["simulate", "--walker", "alice", "--answer", "--go-silent-after", "30s"],
            ["simulate", "--walker", "alice", "--route", "r.csv", "--random"],
            ["simulate", "--walker", "alice", "--destination", "Library"],
            ["simulate", "--walker", "alice", "--minutes", "0", "--destination", "Library"],
            ["simulate", "--walker", "alice", "--stop-moving"],
            ["simulate", "--walker", "al/ice"],
            ["simulate", "--walker", "alice", "--go-silent-after", "soon"],
            ["simulate"],
        ] {
            #expect(throws: (any Error).self, "\(arguments)") { try SafeWalkCommand.parseAsRoot(arguments) }
        }
    }

    @Test func watchTakesAnOptionalWalker() throws {
        let all = try #require(try SafeWalkCommand.parseAsRoot(["watch"]) as? WatchCommand)
        #expect(all.walker == nil)
        let one = try #require(try SafeWalkCommand.parseAsRoot(["watch", "alice", "--no-color"]) as? WatchCommand)
        #expect(one.walker == "alice")
        #expect(one.noColor)
        #expect(throws: (any Error).self) { try SafeWalkCommand.parseAsRoot(["watch", "_service"]) }
    }

    @Test func contactAddTakesWalkerNameAndPhone() throws {
        let add = try #require(
            try SafeWalkCommand.parseAsRoot(
                ["contact", "add", "alice", "Mom", "512 555 0100", "--port", "2883", "--timeout", "2"])
                as? ContactAddCommand)
        #expect(add.walker == "alice")
        #expect(add.name == "Mom")
        #expect(add.phone == "512 555 0100")
        #expect(add.timeout.seconds == 2)
        #expect(try add.broker.settings(environment: [:]).port == 2883)
        #expect(throws: (any Error).self) { try SafeWalkCommand.parseAsRoot(["contact", "add", "alice", "Mom"]) }
        #expect(try SafeWalkCommand.parseAsRoot(["contact", "list", "alice"]) is ContactListCommand)
    }

    @Test func userAddAppliesTheScriptsRules() throws {
        #expect(
            try SafeWalkCommand.parseAsRoot(["user", "add", "alice", "--email", "alice@example.org"])
                is UserAddCommand)
        #expect(try SafeWalkCommand.parseAsRoot(["user", "add", "watchdog", "--service"]) is UserAddCommand)
        for bad in [
            ["user", "add", "watchdog"], ["user", "add", "alice", "--service"], ["user", "add", "_rejected"],
            ["user", "add", "a+b"], ["user", "add", String(repeating: "a", count: 65)],
        ] {
            #expect(throws: (any Error).self, "\(bad)") { try SafeWalkCommand.parseAsRoot(bad) }
        }
    }

    @Test func everyCommandHasHelpThatExplainsIt() {
        let commands: [any ParsableCommand.Type] = [
            SafeWalkCommand.self, UpCommand.self, SimulateCommand.self,
            WatchCommand.self, UserCommand.self, UserAddCommand.self, ContactCommand.self, ContactAddCommand.self,
            ContactListCommand.self,
        ]
        for command in commands {
            let help = SafeWalkCommand.helpMessage(for: command, columns: 200)
            #expect(help.contains("OVERVIEW:") && help.contains("-h, --help"), "\(command)")
        }
        #expect(SafeWalkCommand.helpMessage(for: SimulateCommand.self, columns: 200).contains("--go-silent-after"))
        #expect(SafeWalkCommand.helpMessage(for: WatchCommand.self, columns: 200).contains("--host"))
    }
}

@Suite struct BrokerOptionsTests {
    @Test func optionsFallBackToTheEnvironmentThenDefaults() throws {
        let none = try SafeWalkCommand.parseAsRoot(["watch"]) as! WatchCommand
        #expect(try none.broker.settings(environment: [:]) == BrokerSettings(host: "127.0.0.1", port: 1883))
        let env = [
            "SAFEWALK_MQTT_HOST": "broker", "SAFEWALK_MQTT_PORT": "8883", "SAFEWALK_MQTT_USERNAME": "operator",
            "SAFEWALK_MQTT_PASSWORD": "pw", "SAFEWALK_TOPIC_PREFIX": "test",
        ]
        #expect(
            try none.broker.settings(environment: env)
                == BrokerSettings(
                    host: "broker", port: 8883, username: "operator", password: "pw", prefix: "test"))
        let explicit =
            try SafeWalkCommand.parseAsRoot([
                "watch", "--host", "h", "--port", "1999", "--username", "u",
                "--connect-timeout", "2s",
            ]) as! WatchCommand
        let settings = try explicit.broker.settings(environment: env)
        #expect(settings.host == "h")
        #expect(settings.port == 1999)
        #expect(settings.username == "u")
        #expect(settings.password == "pw")
        #expect(settings.connectTimeout == 2)
    }

    @Test func badEnvironmentValuesAreNamed() throws {
        let watch = try SafeWalkCommand.parseAsRoot(["watch"]) as! WatchCommand
        #expect(throws: CLIError.invalidInput("SAFEWALK_MQTT_PORT must be a port number, not 'x'")) {
            try watch.broker.settings(environment: ["SAFEWALK_MQTT_PORT": "x"])
        }
        #expect(throws: CLIError.self) { try watch.broker.settings(environment: ["SAFEWALK_MQTT_PASSWORD": "pw"]) }
        #expect(
            try watch.broker.settings(environment: ["SAFEWALK_MQTT_PASSWORD": "pw"], defaultUsername: "alice").username
                == "alice")
    }
}
