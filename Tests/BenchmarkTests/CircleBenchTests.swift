import ArgumentParser
import Testing

@testable import circle_bench

/// circle-bench's command line, its ring of SOS contacts and its count of fanned-out copies.
@Suite struct CircleBenchTests {
    @Test func defaultsAreTheIssuesSizesAndQuickShrinksOnlyWhatIsNotGiven() throws {
        let full = try #require(try CircleBench.parseAsRoot([]) as? CircleBench).plan
        #expect(full.users == 10_000 && full.followers == 5 && full.escalations == 1000 && full.incidents == 1000)
        #expect(full.escalationRate == 50 && full.seconds == 30 && full.interval == 5)
        let quick = try #require(try CircleBench.parseAsRoot(["--quick", "--users", "800"]) as? CircleBench).plan
        #expect(quick.users == 800 && quick.escalations == 100 && quick.incidents == 100 && quick.seconds == 10)
    }

    @Test(arguments: [
        ["--user", "10"], ["--followers", "0"], ["--users", "5", "--followers", "5"], ["--escalations", "20000"],
        ["--incidents", "10000"], ["--escalation-rate", "0"], ["--window", "x"],
    ])
    func refusesMisspeltOrImpossibleOptions(_ words: [String]) {
        #expect((try? CircleBench.parseAsRoot(words)) == nil)
    }

    @Test func everyUserHasFSOSContactsAndFFollowersNeverThemselves() {
        let plan = CirclePlan(
            users: 12, followers: 5, escalations: 1, escalationRate: 1, incidents: 1, seconds: 1, dropSeconds: 1,
            interval: 1, window: 1)
        var followers = [Int](repeating: 0, count: plan.users)
        for user in 0..<plan.users {
            let contacts = plan.sosContacts(of: user)
            #expect(Set(contacts).count == 5 && !contacts.contains(user))
            for contact in contacts { followers[contact] += 1 }
        }
        #expect(followers.allSatisfy { $0 == 5 })
        #expect(plan.setupCommands == 3 * 12 * 5)
        #expect(CirclePlan.index(of: Substring(CirclePlan.walker(42).rawValue)) == 42)
        #expect(CirclePlan.index(of: "bob") == nil)
    }

    @Test func aMessageIsTimedToItsLastExpectedCopyAndStrayCopiesAreCounted() {
        let start = ContinuousClock.now
        var tracker = FanOutTracker<String, Int>()
        tracker.sent("a", to: [1, 2, 3], at: start)
        tracker.sent("b", to: [1], at: start)
        #expect(tracker.arrived("a", at: 2, at: start + .milliseconds(5)) == nil)
        #expect(tracker.arrived("a", at: 2, at: start + .milliseconds(6)) == nil, "a duplicate does not count")
        #expect(tracker.arrived("a", at: 9, at: start + .milliseconds(6)) == nil, "nor someone it was not for")
        #expect(tracker.arrived("a", at: 1, at: start + .milliseconds(7)) == nil)
        let latency = tracker.arrived("a", at: 3, at: start + .milliseconds(20))
        #expect(abs((latency ?? 0) - 0.020) < 1e-9)
        #expect(tracker.arrived("a", at: 3, at: start + .milliseconds(21)) == nil, "complete already")
        #expect(tracker.samples.count == 1 && tracker.unexpected == 3 && tracker.missing == 1)
    }
}
