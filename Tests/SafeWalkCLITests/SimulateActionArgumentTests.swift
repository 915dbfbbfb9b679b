import ArgumentParser
import SafeWalkCore
import Testing

@testable import SafeWalkCLI

/// `simulate`'s hold, PIN, note and repeat flags, and the words it refuses bad ones with.
@Suite struct SimulateActionArgumentTests {
    func settings(_ arguments: [String]) throws -> SimulationSettings {
        let command = try #require(
            try SafeWalkCommand.parseAsRoot(["simulate", "--walker", "alice"] + arguments) as? SimulateCommand)
        return try command.simulationSettings(prefix: "safewalk").0
    }

    /// The message the user sees for `arguments`, or nil if they parse.
    func refusal(_ arguments: [String]) -> String? {
        do {
            _ = try SafeWalkCommand.parseAsRoot(["simulate", "--walker", "alice"] + arguments)
            return nil
        } catch {
            return SafeWalkCommand.message(for: error)
        }
    }

    @Test func everyActionIsRepeatedUntilAnsweredByDefault() throws {
        let plain = try settings([])
        #expect(plain.actionRepeat == ActionRepeat(every: 2, giveUpAfter: 60))
        #expect(plain.hold == nil && plain.pins == nil && plain.note == nil && plain.endPIN == nil)
        #expect(
            try settings(["--repeat-every", "500ms", "--answer-timeout", "10s"]).actionRepeat
                == ActionRepeat(every: 0.5, giveUpAfter: 10))
    }

    @Test func holdToRelease() throws {
        let hold = try settings(["--hold", "red", "--release-after", "20s", "--note", "Walking to my car"])
        #expect(hold.hold == HoldPlan(level: .red, heartbeat: 2, end: .release, endsAfter: 20))
        #expect(hold.note == "Walking to my car")
        #expect(
            try settings(["--hold", "amber", "--drop-hold-after", "1m", "--heartbeat", "1.5"]).hold
                == HoldPlan(level: .amber, heartbeat: 1.5, end: .drop, endsAfter: 60))
        #expect(
            try settings(["--hold", "RED", "--cancel-hold-after", "5s"]).hold
                == HoldPlan(level: .red, heartbeat: 2, end: .cancel, endsAfter: 5))
    }

    @Test func pinsAndAnEndingThatCarriesOne() throws {
        let pins = try settings([
            "--set-pins", "1234:9876", "--pin", "1111", "--end-with-pin", "9876",
            "--need-help-after", "30s", "--im-safe-after", "45s",
        ])
        #expect(
            pins.pins == PINSetup(change: PINChange(cancel: PIN("1234")!, duress: PIN("9876")), current: PIN("1111")))
        #expect(pins.endPIN == PIN("9876"))
        #expect(pins.needHelpAfter == 30 && pins.imSafeAfter == 45)
        #expect(
            try settings(["--set-pins", "123456"]).pins
                == PINSetup(change: PINChange(cancel: PIN("123456")!, duress: nil)))
    }

    @Test func badValuesAreRefusedWithTheOptionAndTheRuleNamed() throws {
        let cases: [([String], [String])] = [
            (["--hold", "purple", "--release-after", "5s"], ["--hold", "a level is amber or red"]),
            (["--end-with-pin", "12a4"], ["--end-with-pin", "a PIN is 4 to 12 digits"]),
            (["--set-pins", "123"], ["--set-pins", "a PIN is 4 to 12 digits"]),
            (["--set-pins", "1234:1234"], ["the duress PIN must differ"]),
            (["--set-pins", "1234:5678:9012"], ["CANCEL or CANCEL:DURESS"]),
            (
                ["--need-help-after", "1s", "--note", String(repeating: "a", count: 141)],
                ["--note", "at most 140 characters (this one has 141)"]
            ),
            (["--need-help-after", "1s", "--note", "  "], ["a note must not be empty"]),
            (["--need-help-after", "1s", "--note", "help\u{7}"], ["control characters"]),
            (["--note", "Walking home"], ["--note goes with --need-help-after or --hold"]),
            (["--hold", "red"], ["--hold needs exactly one of"]),
            (["--hold", "red", "--release-after", "5s", "--cancel-hold-after", "6s"], ["--hold needs exactly one of"]),
            (["--release-after", "5s"], ["--release-after needs --hold"]),
            (["--heartbeat", "1s"], ["--heartbeat needs --hold"]),
            (
                ["--hold", "red", "--release-after", "5s", "--heartbeat", "3s"],
                ["--heartbeat must be > 0 and under", "3 s"]
            ),
            (["--hold", "red", "--release-after", "5s", "--heartbeat", "0"], ["--heartbeat must be > 0"]),
            (["--hold", "red", "--release-after", "0"], ["--release-after must be > 0"]),
            (["--pin", "1111"], ["--pin (the current cancel PIN) goes with --set-pins"]),
            (["--repeat-every", "0"], ["--repeat-every must be > 0"]),
            (["--end-with-pin", "1234", "--no-stop"], ["--end-with-pin needs a final stop"]),
        ]
        for (arguments, words) in cases {
            let message = try #require(refusal(arguments), "\(arguments) should be refused")
            for word in words { #expect(message.contains(word), "\(arguments): \(message)") }
        }
        #expect(refusal(["--end-with-pin", "1234", "--no-stop", "--im-safe-after", "10s"]) == nil)
    }

    @Test func theHeartbeatLimitFollowsTheWatchdogsSetting() {
        #expect(SimulateActionOptions.heartbeatLimit(environment: [:]) == 3)
        #expect(SimulateActionOptions.heartbeatLimit(environment: ["SAFEWALK_HOLD_HEARTBEAT": "10"]) == 10)
        #expect(SimulateActionOptions.heartbeatLimit(environment: ["SAFEWALK_HOLD_HEARTBEAT": "soon"]) == 3)
        #expect(SimulateActionOptions.heartbeatLimit(environment: ["SAFEWALK_HOLD_HEARTBEAT": "-1"]) == 3)
    }

    @Test func theHelpShowsTheNewFlags() {
        let help = SafeWalkCommand.helpMessage(for: SimulateCommand.self, columns: 200)
        for flag in [
            "--hold", "--heartbeat", "--release-after", "--drop-hold-after", "--cancel-hold-after", "--note",
            "--set-pins", "--end-with-pin", "--need-help-after", "--repeat-every", "--answer-timeout",
        ] {
            #expect(help.contains(flag), "\(flag)")
        }
    }
}
