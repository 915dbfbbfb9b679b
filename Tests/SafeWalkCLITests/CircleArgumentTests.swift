import ArgumentParser
import SafeWalkCore
import Testing

@testable import SafeWalkCLI

@Suite struct CircleArgumentTests {
    func parsed(_ arguments: [String]) throws -> any CircleOneShot {
        let command = try SafeWalkCommand.parseAsRoot(["circle"] + arguments + ["--username", "alice"])
        return try #require(command as? any CircleOneShot, "\(arguments)")
    }

    @Test func eachSubcommandSendsItsOperationAboutTheTrimmedUser() throws {
        let cases: [(String, CircleCommand.Operation)] = [
            ("follow", .follow), ("accept", .accept), ("deny", .deny), ("unfollow", .unfollow),
            ("remove", .removeFollower), ("sos", .sos), ("unsos", .unsos), ("ask", .checkInRequest), ("ack", .ack),
        ]
        for (name, op) in cases {
            #expect(
                try parsed([name, " bob "]).command(id: "c1") == CircleCommand(id: "c1", op: op, user: "bob"), "\(name)"
            )
        }
        #expect(try parsed(["ask"]).command(id: "c2") == CircleCommand(id: "c2", op: .checkInRequest))
        #expect(try parsed(["checkin"]).command(id: "c3") == CircleCommand(id: "c3", op: .checkIn))
        #expect(try parsed(["home"]).command(id: "c4") == CircleCommand(id: "c4", op: .homeSafe))
        #expect(
            try parsed(["reveal", "on"]).command(id: "c5")
                == CircleCommand(id: "c5", op: .revealOnMissedCheckIn, on: true))
        #expect(
            try parsed(["reveal", "OFF"]).command(id: "c6")
                == CircleCommand(id: "c6", op: .revealOnMissedCheckIn, on: false))
        #expect(try SafeWalkCommand.parseAsRoot(["circle", "inbox", "--username", "alice"]) is CircleInboxCommand)
        #expect(try SafeWalkCommand.parseAsRoot(["circle", "show", "--username", "alice"]) is CircleShowCommand)
    }

    @Test func badNamesAndSettingsAreRefusedBeforeAnythingIsSent() throws {
        for arguments in [
            ["follow"], ["follow", ""], ["follow", "   "], ["sos", "bo/b"], ["ack", "bob#"], ["deny", "_service"],
            ["follow", "bob", "carol"], ["checkin", "bob"], ["reveal"], ["reveal", "yes"], ["ask", "+"],
            ["wave", "bob"],
        ] {
            #expect(throws: (any Error).self, "\(arguments)") {
                try SafeWalkCommand.parseAsRoot(["circle"] + arguments + ["--username", "alice"])
            }
        }
        #expect(throws: (any Error).self) { try CircleArguments.user(" \t") }
        #expect(try CircleArguments.user(" Bob\n").rawValue == "Bob")
    }

    @Test func theSignedInUserIsTheLogin() throws {
        let follow = try #require(
            try SafeWalkCommand.parseAsRoot(["circle", "follow", "bob", "--username", "alice", "--timeout", "2"])
                as? CircleFollowCommand)
        #expect(follow.options.timeout.seconds == 2)
        #expect(try follow.options.signedIn(environment: [:]).user.rawValue == "alice")
        let bare = try CircleFollowCommand.parse(["bob"])
        #expect(bare.options.timeout.seconds == 10)
        #expect(throws: (any Error).self) { try bare.options.signedIn(environment: [:]) }
        #expect(try bare.options.signedIn(environment: ["SAFEWALK_MQTT_USERNAME": "carol"]).user.rawValue == "carol")
        #expect(throws: (any Error).self) {
            try bare.options.signedIn(environment: ["SAFEWALK_MQTT_USERNAME": "no one"])
        }
    }
}
