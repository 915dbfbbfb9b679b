import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import SafeWalkWebKit
import TestSupport
import Testing

/// A contact's live page over real HTTP, fed from a real broker: found by its token, dead when
/// revoked or after the grace, never a position once the walker is safe, live over SSE.
@Suite(.serialized, .holdsResources) struct LivePageHTTPTests {
    let mum = (name: "Mum", token: PageToken.mint())
    let sam = (name: "Sam", token: PageToken.mint())

    @Test func aPageIsFoundByItsTokenWithTheHeadersAPrivateLinkNeeds() async throws {
        let live = try await LiveFixture.start()
        try await live.publish(.ladder(LiveFixture.alice), live.ladder([mum]))
        try await live.publish(.position(LiveFixture.alice), live.position(lat: 30.2849, lon: -97.7341))
        try await live.serve { client, _ in
            let page = try await live.until(client, "/i/\(mum.token)", is: .ok, containing: "30.28490")
            let html = page.text
            for id in ["state", "position", "age", "accuracy", "maps-link", "timeline", "ack-button", "on-it", "map"] {
                #expect(html.contains(#"id="\#(id)""#), "\(id)")
            }
            #expect(html.contains("alice may need help: they did not answer a check-in"))
            #expect(html.contains("https://maps.google.com/?q=30.2849,-97.7341"))
            #expect(html.contains(#"<form id="ack-form" method="post" action="/i/\#(mum.token)/ack">"#))
            #expect(html.contains("roughly where alice is"))
            #expect(
                page.headers[.contentSecurityPolicy]?.contains("img-src 'self' data: https://tile.openstreetmap.org")
                    == true)
            #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            #expect(page.headers[.cacheControl] == "no-store")
            #expect(page.headers[HTTPField.Name("X-Robots-Tag")!]?.contains("noindex") == true)
            // Our own cached files are named by their content, so an upgrade never runs an old copy.
            #expect(String(buffer: page.body).contains("/static/live.js?v="))
            #expect(String(buffer: page.body).contains("/static/live.css?v="))
            // The first render and its files, map tiles aside, as a phone would fetch them.
            var total = page.body.readableBytes
            for file in [
                "/static/live.css", "/static/live.js", "/static/leaflet/leaflet.css", "/static/leaflet/leaflet.min.js",
            ] {
                let response = try await client.execute(
                    uri: file, method: .get, headers: [.acceptEncoding: "gzip, deflate, br"])
                #expect(response.status == .ok, "\(file)")
                total += response.body.readableBytes
            }
            #expect(total < 200_000, "first render: \(total) bytes")
            print("live page first render: \(total) bytes (HTML \(page.body.readableBytes))")
        }
    }

    @Test func staticFilesAreCacheableAndPagesAndTheAPINever() async throws {
        let live = try await LiveFixture.start()
        try await live.publish(.ladder(LiveFixture.alice), live.ladder([mum]))
        try await live.serve { client, _ in
            for file in ["/static/live.js", "/static/live.css", "/static/leaflet/leaflet.css"] {
                let response = try await client.execute(uri: file, method: .get)
                #expect(response.status == .ok, "\(file)")
                #expect(response.headers[.cacheControl] == "public, max-age=86400", "\(file)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(file)")
            }
            let page = try await live.until(client, "/i/\(mum.token)", is: .ok)
            #expect(page.headers[.cacheControl] == "no-store")
            for path in ["/static/nothing.js", "/static/../i/\(mum.token)", "/i/\(PageToken.mint())", "/v1/nothing"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.headers[.cacheControl] == "no-store", "\(path)")
            }
        }
    }

    @Test func unknownMalformedRevokedAndExpiredLinksAreRefusedInWords() async throws {
        let live = try await LiveFixture.start()
        try await live.publish(.ladder(LiveFixture.alice), live.ladder([mum, sam]))
        try await live.serve { client, _ in
            _ = try await live.until(client, "/i/\(sam.token)", is: .ok)
            for path in [
                "/i/\(PageToken.mint())", "/i/short", "/i/\(String(repeating: "*", count: 22))", "/i/\(mum.token)x",
            ] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.text.contains("This link is not valid"), "\(path)")
            }
            // Sam leaves the ladder: his link is dead, and stays dead.
            try await live.publish(.ladder(LiveFixture.alice), live.ladder([mum]))
            let revoked = try await live.until(client, "/i/\(sam.token)", is: .gone)
            #expect(revoked.text.contains("This link has expired"))
            // The walker is safe: no position anywhere; after the grace, the link is dead.
            try await live.publish(.position(LiveFixture.alice), live.position(lat: 30.2849, lon: -97.7341))
            _ = try await live.until(client, "/i/\(mum.token)", is: .ok, containing: "30.28490")
            var closed = IncidentState(
                incident: "i-1", walker: LiveFixture.alice, state: .open, reason: .noReply, level: .amber,
                duress: false, openedAt: live.now - 120)
            closed = closed.closed(at: live.now, by: .imSafe)
            try await live.publish(.incident(LiveFixture.alice), closed)
            let safe = try await live.until(client, "/i/\(mum.token)", is: .ok, containing: "alice is safe (at ")
            for leak in ["30.28", "97.73", "maps.google.com", "data-tst"] {
                #expect(!safe.text.contains(leak), "\(leak)")
            }
            let events = try await EventStream.read(
                port: try #require(client.port), path: "/i/\(mum.token)/events", until: [#""state":"closed""#])
            #expect(!events.contains("30.28") && !events.contains(#""lat""#))
            live.advance(1_801)
            let expired = try await client.execute(uri: "/i/\(mum.token)", method: .get)
            #expect(expired.status == .gone && expired.text.contains("This link has expired"))
        }
    }

    @Test func theEventStreamDeliversAMovedPosition() async throws {
        let live = try await LiveFixture.start()
        try await live.publish(.ladder(LiveFixture.alice), live.ladder([mum]))
        try await live.publish(.position(LiveFixture.alice), live.position(lat: 30.2849, lon: -97.7341))
        try await live.serve { client, port in
            _ = try await live.until(client, "/i/\(mum.token)", is: .ok, containing: "30.28490")
            let reader = Task {
                try await EventStream.read(
                    port: port, path: "/i/\(mum.token)/events", until: [#""lat":30.2849"#, #""lat":30.2901"#])
            }
            try await Task.sleep(for: .milliseconds(300))
            try await live.publish(.position(LiveFixture.alice), live.position(lat: 30.2901, lon: -97.7402))
            let stream = try await reader.value
            #expect(stream.contains("text/event-stream"))
            #expect(stream.contains("event: snapshot\ndata: {"))
            #expect(stream.range(of: #""lat":30.2849"#)!.lowerBound < stream.range(of: #""lat":30.2901"#)!.lowerBound)
        }
    }

    @Test func hostileBrokerMessagesAreRefusedCountedAndReported() async throws {
        let live = try await LiveFixture.start()
        let reports = try await live.peer.subscribe(Topic.rejected(.web).name(prefix: "safewalk"), qos: .atMostOnce)
        var bob = live.ladder([mum])
        bob.walker = WalkerID(validating: "bob")!
        try await live.publish(.ladder(LiveFixture.alice), bob)  // another walker's ladder on alice's topic
        try await live.peer.publish(
            Topic.ladder(LiveFixture.alice).name(prefix: "safewalk"), payload: Data("not json".utf8))
        try await live.peer.publish(
            Topic.position(LiveFixture.alice).name(prefix: "safewalk"),
            payload: Data(String(repeating: " ", count: 9_000).utf8))
        var badPage = live.ladder([mum])
        badPage.recipients[0].page = "not-a-digest"
        try await live.publish(.ladder(LiveFixture.alice), badPage)
        try await live.serve { client, _ in
            let rejected = try await reports.first(4)
            let reasons = try rejected.map { try SafeWalkJSON.decode(Rejection.self, from: $0.payload).reason }
            #expect(Set(reasons) == ["invalid_value", "malformed", "too_large"])
            #expect(try await client.execute(uri: "/i/\(mum.token)", method: .get).status == .notFound)
        }
    }
}
