import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SafeWalkCore
import SafeWalkService
import SafeWalkWebKit
import TestSupport
import Testing

/// The walk on a contact's page: its destination and ETA come from the device's `{w}/status`, and
/// only those. The page's state stays the incident's, whatever the status says (under a duress PIN
/// the device is shown a cancel), and a closed page shows no walk at all.
@Suite(.serialized, .holdsResources) struct LivePageWalkHTTPTests {
    let mum = (name: "Mum", token: PageToken.mint())

    func status(_ state: WatchState, destination: String, eta: Double, now: Double) -> WatchStatus {
        WatchStatus(
            state: state, watching: state != .safe, since: now, walk: WalkPlan(destination: destination, eta: eta))
    }

    @Test func theWalkShowsOnAnOpenPageAndInItsEventsWhateverTheStatusSays() async throws {
        let live = try await LiveFixture.start()
        try await live.publish(.ladder(LiveFixture.alice), live.ladder([mum]))
        let duress = IncidentState(
            incident: "i-1", walker: LiveFixture.alice, state: .open, reason: .noReply, level: .red, duress: true,
            openedAt: live.now - 120)
        try await live.publish(.incident(LiveFixture.alice), duress)
        // What the device is shown after a duress PIN: safe, nothing watched.
        let eta = live.now + 600
        try await live.publish(
            .status(LiveFixture.alice), status(.safe, destination: "Main St & 5th", eta: eta, now: live.now))
        try await live.serve { client, port in
            let page = try await live.until(client, "/i/\(mum.token)", is: .ok, containing: #"id="walk">"#)
            let html = page.text
            #expect(html.contains(#"<p id="walk">Walking to Main St &amp; 5th, expected by <time datetime=""#))
            #expect(html.contains("alice needs help now") && html.contains(#"data-level="red""#))
            #expect(!html.contains("is safe"))
            let events = try await EventStream.read(
                port: port, path: "/i/\(mum.token)/events", until: [#""destination":"Main St & 5th""#])
            #expect(events.contains(#""eta":\#(Int(eta))"#) || events.contains(#""eta":\#(eta)"#))
            #expect(events.contains(#""level":"red""#) && events.contains(#""state":"open""#))
            // The walk ends: the page says nothing of one.
            try await live.peer.publish(
                Topic.status(LiveFixture.alice).name(prefix: "safewalk"),
                payload: try SafeWalkJSON.encode(WatchStatus(state: .safe, watching: false, since: live.now)),
                retain: true)
            let ended = try await live.until(client, "/i/\(mum.token)", is: .ok, containing: #"<p id="walk" hidden>"#)
            #expect(!ended.text.contains("Walking to") && ended.text.contains("alice needs help now"))
        }
    }

    @Test func aClosedPageShowsNoWalk() async throws {
        let live = try await LiveFixture.start()
        try await live.publish(.ladder(LiveFixture.alice), live.ladder([mum]))
        try await live.publish(
            .status(LiveFixture.alice), status(.alert, destination: "Library", eta: live.now + 600, now: live.now))
        try await live.serve { client, port in
            _ = try await live.until(client, "/i/\(mum.token)", is: .ok, containing: "Walking to Library")
            var closed = IncidentState(
                incident: "i-1", walker: LiveFixture.alice, state: .open, reason: .noReply, level: .amber,
                duress: false, openedAt: live.now - 120)
            closed = closed.closed(at: live.now, by: .imSafe)
            try await live.publish(.incident(LiveFixture.alice), closed)
            let safe = try await live.until(client, "/i/\(mum.token)", is: .ok, containing: "alice is safe (at ")
            #expect(!safe.text.contains("Library") && !safe.text.contains("Walking to"))
            let events = try await EventStream.read(
                port: port, path: "/i/\(mum.token)/events", until: [#""state":"closed""#])
            #expect(!events.contains("Library") && !events.contains(#""walk""#))
        }
    }

    @Test func hostileStatusesAreRefusedCountedAndReported() async throws {
        let live = try await LiveFixture.start()
        let reports = try await live.peer.subscribe(Topic.rejected(.web).name(prefix: "safewalk"), qos: .atMostOnce)
        let topic = Topic.status(LiveFixture.alice).name(prefix: "safewalk")
        try await live.peer.publish(topic, payload: Data("not json".utf8))
        try await live.peer.publish(topic, payload: Data(String(repeating: " ", count: 9_000).utf8))
        try await live.serve { _, _ in
            let rejected = try await reports.first(2)
            let reasons = try rejected.map { try SafeWalkJSON.decode(Rejection.self, from: $0.payload).reason }
            #expect(Set(reasons) == ["malformed", "too_large"])
        }
    }
}
