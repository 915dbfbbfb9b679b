import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// Issue 17's OwnTracks set-up across the whole stack: the configuration web hands out connects
/// at once, its locations become the walker's position, and neither it nor the account's own
/// login reaches another walker's topics.
@Suite("End to end: an OwnTracks phone set up over HTTP", .serialized)
struct AccountOwnTracksStoryTests {
    /// An OwnTracks location (owntracks.org/booklet/tech/json) at `lat`, now.
    static func location(lat: Double) -> String {
        #"{"_type":"location","lat":\#(lat),"lon":-97.7341,"tst":\#(Int(Date().timeIntervalSince1970)),"acc":8,"tid":"ot"}"#
    }

    @Test func theConfigurationConnectsAtOnceAndReachesOnlyItsOwnWalker() async throws {
        try await ServiceStack.withAccounts { stack in
            let erin = try await Person.signUp("erin", on: stack)
            let frank = try await Person.signUp("frank", on: stack)
            let noToken = try await erin.ownTracks(csrf: false)
            #expect(noToken.status == 403 && noToken.refusal?.reason == "csrf")
            let someoneElses = try await erin.ownTracks(of: "frank")
            #expect(someoneElses.status == 403 && someoneElses.refusal?.reason == "forbidden")

            let (setup, answeredAt) = try await erin.ownTracksSetup()
            let config = setup.config
            #expect(config.type == "configuration" && config.mode == 0 && config.mqttProtocolLevel == 4)
            #expect(config.host == "127.0.0.1" && config.port == stack.broker.port && !config.tls)
            #expect(config.username == "erin.owntracks" && config.password != erin.password)
            #expect(config.locationTopic == "owntracks/erin/phone" && config.subTopic == "owntracks/erin/phone/cmd")
            #expect(setup.link.hasPrefix("owntracks:///config?inline="))
            // At once: the device's first connection is accepted (a refused CONNACK throws); the
            // time is printed, not asserted (real time belongs in benchmarks).
            let device = try await Self.connect(config, on: stack)
            print("OwnTracks set-up → device connected in \(ContinuousClock.now - answeredAt)")

            // Her locations become her position, as the operator sees it.
            let erinPositions = try await stack.observer.subscribe(try erin.topic(.position), qos: .atLeastOnce)
            try await device.publish(config.locationTopic, string: Self.location(lat: 30.2849))
            let position = try #require(try await erinPositions.decoded(PositionUpdate.self).first)
            #expect(abs(position.fix.lat - 30.2849) < 1e-6)

            let frankDevice = try await Self.connect(try await frank.ownTracksSetup().setup.config, on: stack)
            let erinPhone = try await erin.phone(on: stack)
            let frankPhone = try await frank.phone(on: stack)
            // Erin's device and her phone listen to everything of Frank's they can ask for.
            var eavesdropping: [MQTTSubscription] = []
            for client in [device, erinPhone] {
                for filter in ["owntracks/frank/#", "safewalk/frank/#"] {
                    do {
                        eavesdropping.append(try await client.subscribe(filter, qos: .atLeastOnce))
                    } catch MQTTError.subscriptionRefused {
                        // Refused outright (the device login, by its plugin role): fine too.
                    }
                }
            }
            let frankHears = try await frankPhone.subscribe(try frank.topic(.position), qos: .atLeastOnce)
            let frankInputs = try await stack.observer.subscribe("owntracks/frank/#", qos: .atLeastOnce)
            let frankFixes = try await stack.observer.subscribe(try frank.topic(.fix), qos: .atLeastOnce)

            // Erin forges Frank's location with both her logins; the broker drops every one.
            let forgedFix = try SafeWalkJSON.encode(
                LocationFix(lat: 1, lon: 1, tst: Date().timeIntervalSince1970, acc: 5))
            for client in [device, erinPhone] {
                try await client.publish("owntracks/frank/phone", string: Self.location(lat: 1))
                try await client.publish(try frank.topic(.fix), payload: forgedFix)
            }
            // Then Frank's own phone reports: the first thing anyone hears of Frank is his own.
            try await frankDevice.publish("owntracks/frank/phone", string: Self.location(lat: 30.3))
            let heard = try #require(try await frankHears.decoded(PositionUpdate.self).first)
            #expect(abs(heard.fix.lat - 30.3) < 1e-6, "Frank's position is his own, not Erin's forgery")
            let inputs = try await frankInputs.first(1)
            #expect(inputs.map(\.topic) == ["owntracks/frank/phone"] && inputs.first?.string?.contains("30.3") == true)
            #expect(await frankFixes.drained().isEmpty, "a forged fix reached the services")
            for subscription in eavesdropping {
                let leaked = await subscription.drained().map(\.topic)
                #expect(leaked.isEmpty, "\(subscription.filter) leaked \(leaked)")
            }
            for client in [device, frankDevice, erinPhone, frankPhone] { await client.shutdown() }
        }
    }

    /// Connects the way the OwnTracks app does with `config`.
    static func connect(_ config: OwnTracksSetup.Config, on stack: ServiceStack) async throws -> MQTTClient {
        try await stack.broker.client(config.clientId, username: config.username, password: config.password)
    }
}
