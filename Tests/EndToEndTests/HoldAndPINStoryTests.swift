import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Synchronization
import TestSupport
import Testing

/// Hold-to-release, PINs and duress across the five real executables on the secured broker
/// (hold heartbeat shortened to 1 s, so two missed heartbeats are 2 s).
@Suite("End to end: hold-to-release, PINs and duress", .serialized)
struct HoldAndPINStoryTests {
    /// Sends `action` until its answer arrives, as a device does.
    func perform(_ action: Action, by walker: Walker, answers: MQTTSubscription) async throws -> ActionResult {
        try await walker.phone.publish(walker.topic(.action), payload: SafeWalkJSON.encode(action))
        return try #require(try await answers.decoded(ActionResult.self, where: { $0.id == action.id }).first)
    }

    @Test func releasingTheHeldButtonRaisesThePanicWithTheNote() async throws {
        let world = try await StoryWorld.start()
        let kate = try await Walker("kate", on: world.stack)
        let escalations = try await world.watch("kate", .escalation)
        let answers = try await kate.phone.subscribe(kate.topic(.actionResult), qos: .atLeastOnce)
        let hold = Action(id: "h1", kind: .hold(.amber), note: "Parking garage, level 3")
        #expect(try await perform(hold, by: kate, answers: answers).ok)
        #expect(try await perform(Action(id: "h2", kind: .holding), by: kate, answers: answers).ok)
        #expect(try await perform(Action(id: "h3", kind: .release), by: kate, answers: answers).ok)
        let panic = try #require(try await escalations.decoded(EscalationEvent.self).first)
        #expect(panic.reason == .panic && panic.level == .amber && panic.note == "Parking garage, level 3")
        await kate.leave(); await world.stop()
    }

    @Test func aHoldWhoseConnectionIsCutRaisesThePanicThroughTheLastWill() async throws {
        let world = try await StoryWorld.start()
        let liam = try await Walker("liam", on: world.stack)
        let escalations = try await world.watch("liam", .escalation)
        let answers = try await liam.phone.subscribe(liam.topic(.actionResult), qos: .atLeastOnce)
        // The app's presence connection, with the Last Will, that dies without a goodbye.
        let presence = try ChildProcess(
            "/usr/bin/env",
            [
                "mosquitto_sub", "-h", "127.0.0.1", "-p", "\(world.stack.broker.port)", "-i", "liam-app",
                "-u", "liam", "-P", ServiceStack.password(for: "liam"), "-t", "safewalk/liam/status",
                "--will-topic", "safewalk/liam/presence", "--will-payload", "offline", "--will-retain", "--will-qos",
                "1",
            ],
            logFile: FileManager.default.temporaryDirectory.appendingPathComponent("liam-app-\(UUID()).log"))
        try await Task.sleep(for: .milliseconds(500))  // connected (a status arrives only on change)
        #expect(try await perform(Action(id: "h1", kind: .hold(.red)), by: liam, answers: answers).ok)
        presence.signal(SIGKILL)  // the phone is knocked away: TCP dies, the broker sends the will
        let panic = try #require(try await escalations.decoded(EscalationEvent.self, within: 10).first)
        #expect(panic.reason == .panic && panic.level == .red)
        _ = try? await presence.waitForExit(within: 5)
        await liam.leave(); await world.stop()
    }

    @Test func heartbeatsThatStopRaiseThePanic() async throws {
        let world = try await StoryWorld.start()
        let mia = try await Walker("mia", on: world.stack)
        let escalations = try await world.watch("mia", .escalation)
        let answers = try await mia.phone.subscribe(mia.topic(.actionResult), qos: .atLeastOnce)
        let held = Date()
        #expect(try await perform(Action(id: "h1", kind: .hold(.red)), by: mia, answers: answers).ok)
        let panic = try #require(try await escalations.decoded(EscalationEvent.self, within: 10).first)
        #expect(panic.reason == .panic && panic.level == .red)
        #expect(Date().timeIntervalSince(held) >= 2, "two missed 1 s heartbeats, not sooner")
        await mia.leave(); await world.stop()
    }

    /// Two walkers in the same incident, each with a cancel and a duress PIN and a phone contact.
    /// One ends it with the cancel PIN, the other with the duress PIN. Their phones see the same
    /// thing (ids, times, names and numbers aside), as quickly, including the check-in that
    /// resumes; the duress walker's contact gets a second, red text. No reply is due for 30 s, so
    /// nothing else happens while the phones are compared.
    @Test func aDuressPINLooksLikeACancelOnThePhoneAndTurnsRedForContacts() async throws {
        // Check-ins every 4 s: both phones must see exactly one check-in after the incident ends before
        // their views are compared; at 1 s a second prompt could land in one view and not the other.
        let world = try await StoryWorld.start([
            "SAFEWALK_CHECKIN_INTERVAL": "4", "SAFEWALK_NO_REPLY_AFTER": "30", "SAFEWALK_NO_MOVEMENT_AFTER": "60",
        ])
        let walkers = [("noah", "5125550111"), ("judy", "5125550112")]
        var phones: [String: Walker] = [:]
        var seen: [String: MQTTSubscription] = [:]
        var answers: [String: MQTTSubscription] = [:]
        let escalations = try await world.stack.observer.subscribe("safewalk/+/escalation", qos: .atLeastOnce)
        for (name, number) in walkers {
            let walker = try await Walker(name, on: world.stack)
            phones[name] = walker
            // Everything the phone can read from the start, so both views cover the same events.
            seen[name] = try await walker.phone.subscribe("safewalk/\(name)/#", qos: .atLeastOnce)
            _ = try await world.addContacts([("Sam", number)], for: walker)
            answers[name] = try await walker.phone.subscribe(walker.topic(.actionResult), qos: .atLeastOnce)
            let pins = Action(id: "pins", kind: .setPins(PINChange(cancel: PIN("2468")!, duress: PIN("1357")!)))
            #expect(try await perform(pins, by: walker, answers: answers[name]!).ok)
            #expect(try await perform(Action(id: "start", kind: .start), by: walker, answers: answers[name]!).ok)
            #expect(try await perform(Action(id: "help", kind: .needHelp), by: walker, answers: answers[name]!).ok)
        }
        #expect(try await escalations.decoded(EscalationEvent.self, count: 2).allSatisfy { $0.reason == .needHelp })
        for (name, _) in walkers {  // without a PIN the incident cannot be ended
            let noPIN = try await perform(Action(id: "try", kind: .imSafe), by: phones[name]!, answers: answers[name]!)
            #expect(noPIN.error == .pinRequired)
        }
        let cancelled = try await timed {
            try await perform(
                Action(id: "end", kind: .imSafe, pin: PIN("2468")), by: phones["noah"]!,
                answers: answers["noah"]!)
        }
        let coerced = try await timed {
            try await perform(
                Action(id: "end", kind: .imSafe, pin: PIN("1357")), by: phones["judy"]!,
                answers: answers["judy"]!)
        }
        #expect(cancelled.value == coerced.value)
        let duress = try #require(try await escalations.decoded(EscalationEvent.self).first)
        #expect(duress.walker.rawValue == "judy" && duress.duress && duress.level == .red)
        // Contacts: Sam is texted for needHelp, and judy's Sam again for the duress (her incident
        // stays open behind the cancel her phone saw); noah's Sam gets the all-clear of his real cancel.
        try await eventually("the duress text reaches judy's contact", within: 20) {
            (try? await world.gateway.stats().accepted["+15125550112"]) == 2
        }
        try await eventually("noah's contact hears he is safe", within: 20) {
            (try? await world.gateway.stats().accepted["+15125550111"]) == 2
        }
        #expect(try await world.gateway.stats().bodies["+15125550111"]?.last?.contains("safe") == true)
        #expect(try await world.gateway.stats().bodies["+15125550112"]?.last?.contains("safe") != true)
        // Both phones get the check-in that resumes after an ended incident (one interval later):
        // each view is read up to that check-in's message and its `checking` status (the watchdog
        // and companion-chat publish them independently, in either order), then whatever else
        // had arrived.
        func view(_ name: String, number: String) async throws -> [String] {
            let subscription = seen[name]!
            let upToCheckIn = try await withTimeout(10, "\(name)'s check-in") {
                var messages: [MQTTMessage] = []
                var sawChat = false
                var sawChecking = false
                for await message in subscription {
                    messages.append(message)
                    if message.topic.hasSuffix("/chat") { sawChat = true }
                    if message.topic.hasSuffix("/status"), message.string?.contains("\"checking\"") == true {
                        sawChecking = true
                    }
                    if sawChat && sawChecking { break }
                }
                return messages
            }
            return await (upToCheckIn + subscription.drained())
                .filter { !$0.topic.hasSuffix("/action") && !$0.topic.hasSuffix("/presence") }
                .map {
                    "\($0.topic.replacingOccurrences(of: name, with: "W")) \(Masked.text($0.payload, walker: name, number: number))"
                }
                .sorted()
        }
        let noahSaw = try await view("noah", number: walkers[0].1)
        let judySaw = try await view("judy", number: walkers[1].1)
        #expect(noahSaw.contains { $0.hasPrefix("safewalk/W/chat") })
        #expect(noahSaw == judySaw)
        #expect(!judySaw.contains { $0.contains("duress") })
        // Timing: the same answer about as fast. Medians of alternating rounds, so one stall of
        // a loaded machine does not decide it (each round is hashed and answered like the first).
        var cancelTimes = [cancelled.seconds]
        var duressTimes = [coerced.seconds]
        for round in 0..<6 {
            cancelTimes.append(
                try await timed {
                    try await perform(
                        Action(id: "again-\(round)", kind: .imSafe, pin: PIN("2468")), by: phones["noah"]!,
                        answers: answers["noah"]!)
                }.seconds)
            duressTimes.append(
                try await timed {
                    try await perform(
                        Action(id: "again-\(round)", kind: .imSafe, pin: PIN("1357")), by: phones["judy"]!,
                        answers: answers["judy"]!)
                }.seconds)
        }
        let median = { (times: [Double]) in times.sorted()[times.count / 2] }
        #expect(
            abs(median(cancelTimes) - median(duressTimes)) < 0.1, "cancel \(cancelTimes) s, duress \(duressTimes) s")
        for walker in phones.values { await walker.leave() }
        await world.stop()
    }

    func timed<T: Sendable>(_ work: () async throws -> T) async throws -> (value: T, seconds: Double) {
        let start = ContinuousClock.now
        let value = try await work()
        let elapsed = (ContinuousClock.now - start).components
        return (value, Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
    }
}

/// Payload text with what legitimately differs between two walkers masked: ids, times, the
/// walker's name and the contact's number.
enum Masked {
    static func text(_ payload: Data, walker: String, number: String) -> String {
        String(decoding: payload, as: UTF8.self)
            .replacingOccurrences(
                of: #""(id|since|at|tst|replyBy|nextCheckInAt|escalationId|contactId)":("[^"]*"|[0-9.]+)"#,
                with: #""$1":_"#, options: .regularExpression
            )
            .replacingOccurrences(of: walker, with: "W")
            .replacingOccurrences(of: number, with: "N")
            .replacingOccurrences(of: number.suffix(4), with: "NNNN")
            .replacingOccurrences(
                of: #"\(\d\d(%3A|:)\d\d\)|%28\d\d%3A\d\d%29"#, with: "(T)", options: .regularExpression)
    }
}
