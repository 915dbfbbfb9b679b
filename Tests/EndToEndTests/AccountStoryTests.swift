import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// Issue 17 over real HTTP: the real `web` and `broker-admin` executables on the broker with the
/// dynamic-security plugin and the repo's ACL. Signing up, the rules, the limits, signing in and
/// changing a password need none of the five services, so these stories run without them.
@Suite("End to end: accounts over HTTP", .serialized)
struct AccountStoryTests {
    @Test func aSignUpConnectsAtOnceAndItsNameAndEmailAreTakenInAnyCase() async throws {
        try await ServiceStack.withAccounts(services: []) { stack in
            let web = stack.web()
            let created = try await web.signUp("alice", email: "Alice@Example.org", password: "walk-safe-1")
            let answeredAt = ContinuousClock.now
            #expect(created.status == 201, "\(created.text)")
            // At once, with no reload: the first connection after the answer is accepted (a
            // refused CONNACK throws). The time is printed, not asserted: real time belongs in
            // benchmarks, and a loaded two-core CI machine stretches any bound.
            let phone = try await stack.broker.client(username: "alice", password: "walk-safe-1")
            print("sign-up → broker login connected in \(ContinuousClock.now - answeredAt)")
            await phone.shutdown()
            #expect(created.decoded([String: String].self) == ["username": "alice", "email": "Alice@Example.org"])

            let sameName = try await stack.web().signUp("ALICE", email: "someone@example.org", password: "walk-safe-1")
            #expect(sameName.status == 409 && sameName.refusal == Refusal(field: "username", reason: "taken"))
            let sameEmail = try await stack.web().signUp("alicia", email: "aLICE@example.ORG", password: "walk-safe-1")
            #expect(sameEmail.status == 409 && sameEmail.refusal == Refusal(field: "email", reason: "taken"))
            #expect(try await stack.pluginLogins() == [DynamicSecurityBroker.adminUsername, "alice"])
        }
    }

    /// (fields, the field named, its reason): the first wrong field, in the order username,
    /// e-mail, password (docs/services/web.md).
    static let badFields: [([String: String], String, String)] = [
        (["email": "a@example.org", "password": "walk-safe-1"], "username", "missing"),
        (["username": "  ", "email": "a@example.org", "password": "walk-safe-1"], "username", "empty"),
        (["username": "al ice", "email": "a@example.org", "password": "walk-safe-1"], "username", "invalidCharacters"),
        (["username": "al/ice", "email": "a@example.org", "password": "walk-safe-1"], "username", "invalidCharacters"),
        (
            ["username": String(repeating: "a", count: 65), "email": "a@example.org", "password": "walk-safe-1"],
            "username", "tooLong"
        ),
        (["username": "Watchdog", "email": "a@example.org", "password": "walk-safe-1"], "username", "reserved"),
        (["username": "ROOT", "email": "a@example.org", "password": "walk-safe-1"], "username", "reserved"),
        (["username": "_alice", "email": "a@example.org", "password": "walk-safe-1"], "username", "reserved"),
        (["username": "bea", "password": "walk-safe-1"], "email", "missing"),
        (["username": "bea", "email": " ", "password": "walk-safe-1"], "email", "empty"),
        (["username": "bea", "email": "bea.example.org", "password": "walk-safe-1"], "email", "invalid"),
        (["username": "bea", "email": "bea@localhost", "password": "walk-safe-1"], "email", "invalid"),
        (["username": "bea", "email": "b ea@example.org", "password": "walk-safe-1"], "email", "invalidCharacters"),
        (
            [
                "username": "bea", "email": String(repeating: "b", count: 243) + "@example.org",
                "password": "walk-safe-1",
            ],
            "email", "tooLong"
        ),
        (["username": "cy", "email": "cy@example.org"], "password", "missing"),
        (["username": "cy", "email": "cy@example.org", "password": "s4fe!"], "password", "tooShort"),
        (
            ["username": "cy", "email": "cy@example.org", "password": String(repeating: "w4!", count: 86)],
            "password", "tooLong"
        ),
        (["username": "cy", "email": "cy@example.org", "password": "walk-safe-walk"], "password", "needsDigit"),
        (["username": "cy", "email": "cy@example.org", "password": "walksafe1234"], "password", "needsSpecial"),
        (
            ["username": "cy", "email": "cy@example.org", "password": "walk\u{7}safe-1"], "password",
            "invalidCharacters"
        ),
    ]

    @Test func eachBadFieldIsRefusedByNameAndMakesNoLogin() async throws {
        try await ServiceStack.withAccounts(services: []) { stack in
            // Each from its own address: every attempt counts against the per-address limit.
            for (fields, field, reason) in Self.badFields {
                let response = try await stack.web().send("POST", "/v1/accounts", json: fields)
                #expect(response.status == 400, "\(fields): \(response.text)")
                #expect(response.refusal == Refusal(field: field, reason: reason), "\(fields)")
            }
            let wrongType = try await stack.web().send(
                "POST", "/v1/accounts",
                body: Array(#"{"username":7,"email":"a@example.org","password":"walk-safe-1"}"#.utf8))
            #expect(wrongType.status == 400 && wrongType.refusal == Refusal(field: "username", reason: "wrongType"))
            #expect(try await stack.pluginLogins() == [DynamicSecurityBroker.adminUsername])
            // (Not bea or cy: their five attempts each have spent the per-name limit.)
            #expect(try await stack.web().signUp("dee", password: "walk-safe-1").status == 201)
        }
    }

    @Test func tooManySignUpsFromOneAddressOrForOneNameAreRateLimited() async throws {
        try await ServiceStack.withAccounts(services: []) { stack in
            // The defaults: 5 attempts per address and per name asked for, per 600 s; a broken
            // rule counts (the limits come first), so these cost no hashing.
            let flood = stack.web()
            for index in 0..<5 {
                #expect(try await flood.signUp("flood\(index)", password: "weak").status == 400)
            }
            let sixth = try await flood.signUp("flood5", password: "walk-safe-1")
            #expect(sixth.status == 429 && sixth.refusal == Refusal(field: nil, reason: "rateLimited"), "\(sixth.text)")
            #expect((Int(sixth.header("Retry-After") ?? "") ?? 0) > 0)
            #expect(try await stack.web().signUp("flood5", password: "walk-safe-1").status == 201, "another address")

            for _ in 0..<5 { #expect(try await stack.web().signUp("gina", password: "weak").status == 400) }
            let sixthForGina = try await stack.web().signUp("GINA", password: "walk-safe-1")
            #expect(
                sixthForGina.status == 429 && sixthForGina.refusal?.reason == "rateLimited", "any case, any address")
            #expect(try await stack.pluginLogins() == [DynamicSecurityBroker.adminUsername, "flood5"])
        }
    }

    @Test func aPasswordChangeNeedsTheOldPasswordAndTheTokenAndMovesTheBrokerLogin() async throws {
        try await ServiceStack.withAccounts(services: []) { stack in
            let dave = try await Person.signUp("dave", on: stack)
            for (name, password) in [("dave", "walk-safe-2"), ("nobody", "walk-safe-1")] {
                let refused = try await dave.web.signIn(name, password)
                #expect(refused.status == 401 && refused.refusal?.reason == "badCredentials", "\(name)")
            }
            let laptop = try #require(try await stack.web().signIn("Dave", "walk-safe-1").session, "any case")
            let phone = try await dave.phone(on: stack)

            let noToken = try await dave.changePassword(from: "walk-safe-1", to: "walk-safe-9", csrf: false)
            #expect(noToken.status == 403 && noToken.refusal?.reason == "csrf")
            let wrongOld = try await dave.changePassword(from: "walk-safe-2", to: "walk-safe-9")
            #expect(wrongOld.status == 403 && wrongOld.refusal == Refusal(field: "oldPassword", reason: "incorrect"))
            let weakNew = try await dave.changePassword(from: "walk-safe-1", to: "short")
            #expect(weakNew.status == 400 && weakNew.refusal == Refusal(field: "newPassword", reason: "tooShort"))
            #expect(try await dave.changePassword(from: "walk-safe-1", to: "walk-safe-9").status == 200)

            // The broker login moved with it: the phone on the old password is dropped and refused.
            try await phone.waitUntilDisconnected()
            #expect(try await stack.broker.refuses(username: "dave", password: "walk-safe-1"))
            #expect(try await stack.broker.refusal(username: "dave", password: "walk-safe-9") == nil)
            #expect(try await dave.web.signIn("dave", "walk-safe-9").status == 200)
            #expect(try await dave.web.signIn("dave", "walk-safe-1").status == 401)
            // Every other session ended; this one goes on until signed out.
            let elsewhere = try await dave.web.send("DELETE", "/v1/sessions", json: nil, session: laptop)
            #expect(elsewhere.status == 401 && elsewhere.refusal?.reason == "unauthenticated")
            #expect(try await dave.web.send("DELETE", "/v1/sessions", json: nil, session: dave.session).status == 204)
            await phone.shutdown()
        }
    }
}
