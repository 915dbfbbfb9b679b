import Foundation
import SafeWalkCore
import TestSupport
import Testing

extension HostileHTTPStackTests {
    static let attempts = 10_000
    static let inFlight = 8

    /// 10,000 sign-up attempts (``SignUpAttempt/mix(count:)``), 8 in flight. The hashing work is
    /// bounded by the mix, not lowered: web refuses fewer than 210,000 PBKDF2 rounds even in
    /// tests, so only the ~110 good sign-ups that get past the limits cost a hash.
    @Test func tenThousandSignUpAttemptsLeaveTheServiceUpAndTheStoreConsistent() async throws {
        try await ServiceStack.withAccounts(services: [], openMetricsPorts: true) { stack in
            for seed in SignUpAttempt.seeds {
                #expect(try await stack.web().signUp(seed, password: SignUpAttempt.password).status == 201)
            }
            let before = try await stack.httpRejections()
            let attempts = SignUpAttempt.mix(count: Self.attempts)
            let started = ContinuousClock.now
            let answers = await Self.send(attempts, to: stack)
            let took = ContinuousClock.now - started
            print("\(Self.attempts) hostile sign-up attempts, \(Self.inFlight) in flight: \(took)")
            for kind in SignUpAttempt.Kind.allCases {
                let statuses = zip(attempts, answers).filter { $0.0.kind == kind }.map(\.1.status)
                let counts = Dictionary(statuses.map { ($0, 1) }, uniquingKeysWith: +).sorted { $0.key < $1.key }
                print("  \(kind): \(counts.map { "\($0.value)× \($0.key)" }.joined(separator: ", "))")
            }

            let unexpected = zip(attempts, answers).filter { !$0.0.allowed.contains($0.1.status) }
            #expect(
                unexpected.isEmpty,
                "\(unexpected.count) unexpected, e.g. \(unexpected.prefix(5).map { ($0.0.kind, $0.1) })")
            let created = zip(attempts, answers).filter { $0.1.status == 201 }.compactMap(\.0.username)
            #expect(created.filter { $0.hasPrefix("fresh") }.count == Self.attempts / 100)
            // The flooding address had 5 attempts, and earns one back every 120 s.
            let flooded = created.filter { $0.hasPrefix("flood") }.count
            #expect(flooded >= 5 && flooded <= 5 + Int(took / .seconds(120)), "\(flooded) flood sign-ups made")
            try await Self.expectUp(stack)

            // Every refusal is counted under the reason it was answered with.
            let after = try await stack.httpRejections()
            let counted = after.map { ($0.key, $0.value - before[$0.key, default: 0]) }.filter { $0.1 > 0 }
            let answered = Dictionary(answers.compactMap(\.reason).map { ($0, 1) }, uniquingKeysWith: +)
            #expect(Dictionary(uniqueKeysWithValues: counted) == answered)

            // One active account per 201 and per seed, and exactly one broker login for each.
            let accounts = try Self.accounts(in: stack)
            #expect(Set(accounts.keys) == Set(SignUpAttempt.seeds + created))
            #expect(accounts.values.allSatisfy { $0 == "active" }, "\(accounts.filter { $0.value != "active" })")
            #expect(try await stack.pluginLogins() == Set(accounts.keys).union([DynamicSecurityBroker.adminUsername]))
            let signInStarted = ContinuousClock.now
            let cannotSignIn = await Self.cannotSignIn(Array(accounts.keys), on: stack)
            #expect(cannotSignIn.isEmpty, "\(cannotSignIn)")
            print("\(accounts.count) sign-ins over HTTP and to the broker: \(ContinuousClock.now - signInStarted)")
            #expect(try await stack.web().signUp("ordinary", password: SignUpAttempt.password).status == 201)
            try await Self.expectUp(stack)
        }
    }

    /// What web answered one attempt: its status and the refusal's metric reason (none for a
    /// 201); a request that got no answer at all is status 0.
    struct Answer: Sendable, CustomStringConvertible {
        var status: Int
        var reason: String?
        var description: String { "\(status) \(reason ?? "")" }
    }

    /// Sends every attempt, `inFlight` at a time, and returns the answers in the attempts' order.
    static func send(_ attempts: [SignUpAttempt], to stack: ServiceStack) async -> [Answer] {
        await withTaskGroup(of: (Int, Answer).self) { group in
            var answers = [Answer](repeating: Answer(status: -1), count: attempts.count)
            for (index, attempt) in attempts.enumerated() {
                if index >= inFlight, let done = await group.next() { answers[done.0] = done.1 }
                let web = stack.web(from: attempt.address)
                group.addTask {
                    do {
                        let response = try await web.send(
                            "POST", "/v1/accounts", body: attempt.body, contentType: attempt.contentType)
                        let reason = response.refusal.map {
                            [$0.field, $0.reason].compactMap { $0 }.joined(separator: "_")
                        }
                        return (index, Answer(status: response.status, reason: reason))
                    } catch {
                        return (index, Answer(status: 0, reason: "\(error)"))
                    }
                }
            }
            for await (done, answer) in group { answers[done] = answer }
            return answers
        }
    }

    /// The accounts that cannot sign in over HTTP or log in to the broker with their password.
    static func cannotSignIn(_ users: [String], on stack: ServiceStack) async -> [String] {
        await withTaskGroup(of: String?.self) { group in
            var failed: [String] = []
            for (index, user) in users.enumerated() {
                if index >= inFlight, let done = await group.next(), let done { failed.append(done) }
                group.addTask {
                    do {
                        let http = try await stack.web().signIn(user, SignUpAttempt.password)
                        let broker = try await stack.broker.refusal(username: user, password: SignUpAttempt.password)
                        return http.status == 200 && broker == nil ? nil : user
                    } catch {
                        return user
                    }
                }
            }
            for await done in group { if let done { failed.append(done) } }
            return failed
        }
    }
}
