import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkWebKit
import TestSupport
import Testing

/// The monitoring desk over real HTTP, fed from a real broker: operators and walkers each on
/// their own side, positions only during an open incident (and every one served is audited
/// first), the walker told who looked (held during duress), and the desk's close and
/// acknowledgement handed to the watchdog and the notifier.
@Suite(.serialized, .holdsResources) struct DeskHTTPTests {
    @Test func operatorsAndWalkersStayOnTheirOwnSide() async throws {
        let desk = try await DeskFixture.start()
        try await desk.serve { client, _ in
            let olga = try await desk.operatorSession(client)
            // No broker login of any kind for an operator.
            #expect(desk.web.broker.operations.isEmpty)
            try #require(try await client.signUp("alice").status == .created)
            let alice = try await client.session("alice")
            // An operator is not a walker: no walker sign-in, no walker routes, no broker login.
            let walkerSignIn = try await client.send(
                .post, "/v1/sessions", json: #"{"username":"olga","password":"desk-safe-1"}"#)
            #expect(walkerSignIn.status == .forbidden)
            #expect(walkerSignIn.refusal?.reason == "useDesk")
            #expect(try await client.send(.get, "/v1/sessions/current", session: olga).refusal?.reason == "useDesk")
            #expect(try await client.send(.get, "/v1/app/desk-views", session: olga).refusal?.reason == "useDesk")
            #expect(!desk.web.broker.sessionCommands.contains { $0.user.rawValue == "olga" })
            // A walker is not an operator, whatever they send.
            let deskSignIn = try await client.send(
                .post, "/v1/desk/sessions", json: #"{"username":"alice","password":"walk-safe-1"}"#)
            #expect(deskSignIn.status == .forbidden)
            #expect(deskSignIn.refusal?.reason == "notOperator")
            for path in ["/v1/desk/me", "/v1/desk/events", "/v1/desk/walkers/alice/position", "/v1/desk/operators"] {
                let response = try await client.send(.get, path, session: alice)
                #expect(response.refusal?.reason == "notOperator", "\(path)")
            }
            // A wrong password says nothing about the role.
            let wrong = try await client.send(
                .post, "/v1/desk/sessions", json: #"{"username":"alice","password":"not-hers-1"}"#)
            #expect(wrong.refusal?.reason == "badCredentials")
            // Operators are not members of the circle, and only an admin adds operators.
            #expect(try await desk.database.memberships().map(\.user.rawValue) == ["alice"])
            let add = #"{"username":"otto","email":"otto@desk.example.org","password":"desk-safe-2"}"#
            #expect(
                try await client.send(.post, "/v1/desk/operators", json: add, session: olga).refusal?.reason
                    == "notAdmin")
            let ada = try await desk.operatorSession(client, "ada", role: .admin)
            #expect(try await client.send(.post, "/v1/desk/operators", json: add, session: ada).status == .created)
            let listed = try await client.send(.get, "/v1/desk/operators", session: olga)
            #expect(listed.text.contains(#""username":"otto""#))
            #expect(try await client.send(.get, "/v1/desk/me", session: olga).json["username"] as? String == "olga")
        }
    }

    @Test func aPositionIsServedOnlyDuringAnOpenIncidentAndEveryServedOneIsAudited() async throws {
        let desk = try await DeskFixture.start()
        try await desk.publish(.position(DeskFixture.alice), desk.position(lat: 51.5072, lon: -0.1276))
        try await desk.serve { client, _ in
            let olga = try await desk.operatorSession(client)
            // No incident at all: 403, and nothing was recorded because nothing was served.
            let before = try await client.send(.get, "/v1/desk/walkers/alice/position", session: olga)
            #expect(before.status == .forbidden)
            #expect(before.refusal?.reason == "noOpenIncident")
            #expect(!before.text.contains("51.5"))
            #expect(try await desk.database.views(ofWalker: DeskFixture.alice).isEmpty)
            // Open: served, and audited.
            try await desk.publish(.incident(DeskFixture.alice), desk.incident(.open))
            try await desk.untilDeskSees(.open)
            let during = try await client.send(.get, "/v1/desk/walkers/alice/position", session: olga)
            #expect(during.status == .ok)
            #expect(during.text.contains("51.5072"))
            let views = try await desk.database.views(ofIncident: DeskFixture.incident)
            #expect(views.map(\.what) == [.position])
            #expect(views.first?.operator == "olga")
            // Closed: refused again, its stream too, and no new record.
            try await desk.publish(.incident(DeskFixture.alice), desk.incident(.closed))
            try await desk.untilDeskSees(.closed)
            let after = try await client.send(.get, "/v1/desk/walkers/alice/position", session: olga)
            #expect(after.refusal?.reason == "noOpenIncident")
            let stream = try await client.send(
                .get, "/v1/desk/incidents/\(DeskFixture.incident)/positions", session: olga)
            #expect(stream.refusal?.reason == "noOpenIncident")
            #expect(try await desk.database.views(ofIncident: DeskFixture.incident).count == 1)
            // Another walker with no incident at all, or no such walker.
            for path in ["/v1/desk/walkers/bob/position", "/v1/desk/walkers/_incidents/position"] {
                #expect(try await client.send(.get, path, session: olga).status == .forbidden, "\(path)")
            }
        }
    }

    @Test func theBoardStreamsOpenIncidentsWithPositionsAndTheWalkerIsToldWhoLooked() async throws {
        let desk = try await DeskFixture.start()
        let notices = try await desk.peer.subscribe("safewalk/alice/desk", qos: .atLeastOnce)
        try await desk.publish(.position(DeskFixture.alice), desk.position(lat: 51.5072, lon: -0.1276))
        try await desk.publish(
            .status(DeskFixture.alice),
            WatchStatus(state: .safe, watching: true, since: desk.now))
        try await desk.serve { client, port in
            let olga = try await desk.operatorSession(client)
            try await desk.publish(.incident(DeskFixture.alice), desk.incident(.open))
            try await desk.untilDeskSees(.open)
            let board = try await EventStream.read(
                port: port, path: "/v1/desk/events", cookie: olga.cookie,
                until: [#""incident":"i-1""#, #""lat":51.5072"#, #""alert":1"#], within: 20)
            #expect(board.contains("event: board"))
            #expect(board.contains(#""walker":"alice""#))
            let notice = try await notices.first(1)
            let text = String(decoding: notice[0].payload, as: UTF8.self)
            #expect(text.contains("olga of the campus desk viewed your alert at"))
            try #require(try await client.signUp("alice").status == .created)
            let alice = try await client.session("alice")
            let audit = try await client.send(.get, "/v1/app/desk-views", session: alice)
            #expect(audit.status == .ok)
            #expect(audit.text.contains(#""what":"board""#))
            #expect(audit.text.contains("olga of the campus desk viewed your alert"))
        }
    }

    @Test func duringADuressIncidentTheWalkerLearnsNothingUntilItCloses() async throws {
        let desk = try await DeskFixture.start()
        let notices = try await desk.peer.subscribe("safewalk/alice/desk", qos: .atLeastOnce)
        try await desk.serve { client, _ in
            try #require(try await client.signUp("alice").status == .created)
            let alice = try await client.session("alice")
            let olga = try await desk.operatorSession(client)
            try await desk.publish(.incident(DeskFixture.alice), desk.incident(.open, duress: true))
            try await desk.untilDeskSees(.open)
            let page = try await client.send(.get, "/v1/desk/incidents/\(DeskFixture.incident)", session: olga)
            #expect(page.status == .ok)
            #expect(page.text.contains(#""duress":true"#))
            #expect(try await desk.database.views(ofIncident: DeskFixture.incident).count == 1)
            // Nothing reaches the walker: no notice, and their own audit leaves the view out.
            #expect(
                try await client.send(.get, "/v1/app/desk-views", session: alice).text == #"{"views":[]}"#)
            // A false alarm under duress needs a note, and is refused before the watchdog is asked.
            let closes = try await desk.peer.subscribe("safewalk/_desk/close", qos: .atLeastOnce)
            let bare = try await client.send(
                .post, "/v1/desk/incidents/\(DeskFixture.incident)/close", json: #"{"reason":"falseAlarm"}"#,
                session: olga)
            #expect(bare.status == .unprocessableContent)
            #expect(bare.refusal?.reason == "noteRequired")
            // The services close it: now the walker may learn who looked.
            try await desk.publish(.incident(DeskFixture.alice), desk.incident(.closed, duress: true))
            let notice = try await notices.first(1)
            #expect(String(decoding: notice[0].payload, as: UTF8.self).contains("olga of the campus desk"))
            #expect(await closes.drained().isEmpty)
            let audit = try await client.send(.get, "/v1/app/desk-views", session: alice)
            #expect(audit.text.contains(#""what":"incident""#))
        }
    }

    @Test func theDeskClosesThroughTheWatchdogAndAcknowledgesThroughTheNotifier() async throws {
        let desk = try await DeskFixture.start()
        let closes = try await desk.peer.subscribe("safewalk/_desk/close", qos: .atLeastOnce)
        let acks = try await desk.peer.subscribe("safewalk/_acks/request", qos: .atLeastOnce)
        try await desk.serve { client, _ in
            let olga = try await desk.operatorSession(client)
            _ = try await desk.operatorSession(client, "otto")
            try await desk.publish(.incident(DeskFixture.alice), desk.incident(.open))
            try await desk.untilDeskSees(.open)
            let path = "/v1/desk/incidents/\(DeskFixture.incident)"
            // Acknowledge: the notifier gets `via: desk` for the operator and answers.
            let notifier = Task {
                let request = try await acks.first(1)[0]
                let sent = try SafeWalkJSON.decode(AcknowledgementRequest.self, from: request.payload)
                #expect(sent.via == .desk)
                #expect(sent.user?.rawValue == "olga")
                #expect(sent.walker == DeskFixture.alice)
                try await desk.publish(
                    .acknowledgementResult,
                    AcknowledgementResult(
                        id: sent.id, ok: true, walker: DeskFixture.alice, incident: DeskFixture.incident,
                        by: "the campus desk"), retain: false)
            }
            let ack = try await client.send(.post, path + "/ack", session: olga)
            try await notifier.value
            #expect(ack.status == .ok)
            #expect(ack.json["by"] as? String == "the campus desk")
            // A note and a hand-over go on the timeline; a hand-over to a walker or nobody is refused.
            #expect(
                try await client.send(.post, path + "/notes", json: #"{"text":"Called her."}"#, session: olga).status
                    == .created)
            #expect(
                try await client.send(.post, path + "/handover", json: #"{"to":"nobody"}"#, session: olga).refusal?
                    .reason == "unknownOperator")
            #expect(
                try await client.send(.post, path + "/handover", json: #"{"to":"otto"}"#, session: olga).status == .ok)
            // Close: the watchdog gets the request and answers; the answer decides.
            let watchdog = Task {
                let request = try await closes.first(1)[0]
                let sent = try SafeWalkJSON.decode(DeskClose.self, from: request.payload)
                #expect(sent.reason == .falseAlarm)
                #expect(sent.operator == "olga")
                #expect(sent.incident == DeskFixture.incident)
                try await desk.publish(
                    .deskResult,
                    DeskCloseResult(id: sent.id, ok: true, walker: DeskFixture.alice, incident: sent.incident),
                    retain: false)
            }
            let close = try await client.send(.post, path + "/close", json: #"{"reason":"falseAlarm"}"#, session: olga)
            try await watchdog.value
            #expect(close.status == .ok)
            let page = try await client.send(.get, path, session: olga)
            let timeline = page.text
            for line in ["olga acknowledged", "Called her.", "handed the incident to otto", "closed it as false alarm"]
            {
                #expect(timeline.contains(line), "\(line)")
            }
            #expect(page.text.contains(#""assignee":"otto""#))
            // Refusals in words: an unknown reason, and no CSRF token.
            #expect(
                try await client.send(.post, path + "/close", json: #"{"reason":"bored"}"#, session: olga).status
                    == .badRequest)
            var noToken = olga
            noToken.csrf = "wrong"
            #expect(try await client.send(.post, path + "/ack", session: noToken).refusal?.reason == "csrf")
        }
    }

    @Test func theDesksRowsGoWithTheWalkersAccount() async throws {
        let desk = try await DeskFixture.start()
        try await desk.serve { client, _ in
            try #require(try await client.signUp("alice").status == .created)
            let olga = try await desk.operatorSession(client)
            try await desk.publish(.incident(DeskFixture.alice), desk.incident(.open))
            try await desk.untilDeskSees(.open)
            #expect(
                try await client.send(.get, "/v1/desk/incidents/\(DeskFixture.incident)", session: olga).status == .ok)
            #expect(try await desk.database.views(ofIncident: DeskFixture.incident).count == 1)
            let erasure = try #require(
                try await desk.database.startErasure(id: "e-1", key: "alice", remaining: [], at: Date()))
            try await desk.database.finishErasure(erasure)
            #expect(try await desk.database.views(ofIncident: DeskFixture.incident).isEmpty)
            #expect(try await desk.database.log(ofIncident: DeskFixture.incident).isEmpty)
        }
    }
}
