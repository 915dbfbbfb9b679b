import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Testing
import WatchdogKit

/// How `location` on `start`/`startWalk` and `background` on `{w}/presence` are read.
@Suite struct LocationInputTests {
    let decoder = InputDecoder(prefix: "safewalk", maxBytes: 1_024)
    let alice = try! WalkerID("alice")

    func decode(_ topic: String, _ payload: String) -> Result<DecodedInput, InputRejection> {
        do {
            return .success(try decoder.decode(MQTTMessage(topic: topic, string: payload), now: 1_000))
        } catch {
            return .failure(error)
        }
    }

    @Test func startAndStartWalkCarryLocation() throws {
        let start = decode("safewalk/alice/action", #"{"v":1,"action":"start","id":"a1","location":false}"#)
        #expect(try start.get() == .event(alice, .action(Action(id: "a1", kind: .start, location: false))))
        let walk = decode(
            "safewalk/alice/action",
            #"{"v":1,"action":"startWalk","id":"a2","destination":"Home","minutes":5,"location":true}"#)
        #expect(
            try walk.get()
                == .event(
                    alice, .action(Action(id: "a2", kind: .startWalk(destination: "Home", minutes: 5), location: true)))
        )
        let absent = decode("safewalk/alice/action", #"{"v":1,"action":"start","id":"a3"}"#)
        #expect(try absent.get() == .event(alice, .action(Action(id: "a3", kind: .start))))
    }

    @Test(arguments: [#""no""#, "0", "1", "{}", "[false]"])
    func aLocationThatIsNotABooleanRefusesTheStart(value: String) {
        for payload in [
            #"{"v":1,"action":"start","id":"a1","location":\#(value)}"#,
            #"{"v":1,"action":"startWalk","id":"a1","destination":"Home","minutes":5,"location":\#(value)}"#,
        ] {
            guard case .failure(let rejection) = decode("safewalk/alice/action", payload) else {
                Issue.record("accepted \(payload)")
                continue
            }
            #expect(rejection.code == "wrong_type")
            #expect(rejection.id == "a1", "the device learns which action was refused")
        }
    }

    @Test func aBadLocationNeverBlocksACryForHelp() throws {
        for payload in [
            #"{"v":1,"action":"needHelp","id":"h1","location":"no"}"#,
            #"{"v":1,"action":"panic","id":"h1","level":"red","location":7}"#,
        ] {
            guard case .event(_, .action(let action, _)) = try decode("safewalk/alice/action", payload).get() else {
                Issue.record("not an action: \(payload)")
                continue
            }
            #expect(action.kind == .needHelp || action.kind == .panic(.red))
        }
    }

    @Test func backgroundIsAPresence() throws {
        #expect(try decode("safewalk/alice/presence", "background").get() == .event(alice, .presence(.background)))
        #expect(try decode("safewalk/alice/presence", "background\n").get() == .event(alice, .presence(.background)))
        guard case .failure(let rejection) = decode("safewalk/alice/presence", "Background") else {
            Issue.record("accepted another casing")
            return
        }
        #expect(rejection.code == "invalid_presence")
    }

    @Test func anActionWritesLocationOnlyWhenItHasOne() throws {
        let off = String(
            decoding: try SafeWalkJSON.encode(Action(id: "a", kind: .start, location: false)), as: UTF8.self)
        #expect(off.contains(#""location":false"#))
        let plain = String(decoding: try SafeWalkJSON.encode(Action(id: "a", kind: .start)), as: UTF8.self)
        #expect(!plain.contains("location"))
        let back = try SafeWalkJSON.decode(Action.self, from: Data(off.utf8))
        #expect(back.location == false)
    }
}
