import SafeWalkCore

/// What each user may see of the circle, derived from the graph: one function per view, so the
/// rule of who sees what is written once.
enum CircleViews {
    /// `{w}/circle`: `user`'s own circle at `now` (an expired "home safe" is not shown).
    static func circle(of user: WalkerID, in graph: CircleGraph, now: EpochSeconds) -> CircleView {
        func shownHome(_ someone: WalkerID) -> HomeSafe? {
            graph.homeSafe[someone].flatMap { $0.isShown(at: now) ? $0 : nil }
        }
        let following = (graph.following[user] ?? [:])
            .map { followee, link in
                CircleView.Followed(
                    user: followee, sos: link.sos, since: link.since, checkedInAt: graph.checkedIn[followee],
                    homeSafe: shownHome(followee))
            }
            .sorted { ($0.since, $0.user) < ($1.since, $1.user) }
        let followers = graph.followers(of: user)
            .map { follower in
                CircleView.Follower(
                    user: follower, sosOfTheirs: graph.link(follower, follows: user)?.sos ?? false,
                    since: graph.link(follower, follows: user)?.since ?? 0)
            }
            .sorted { ($0.since, $0.user) < ($1.since, $1.user) }
        let requestsIn = (graph.requestsIn[user] ?? [])
            .compactMap { requester in
                graph.requestsOut[requester]?[user].map { CircleView.Request(user: requester, at: $0) }
            }
        let requestsOut = (graph.requestsOut[user] ?? [:]).map { CircleView.Request(user: $0.key, at: $0.value) }
        let checkInRequests = (graph.checkIns[user] ?? [:]).map { CircleView.Request(user: $0.key, at: $0.value.at) }
        let asked = graph.checkIns.compactMap { asked, askers in
            askers[user].map { CircleView.Request(user: asked, at: $0.at) }
        }
        return CircleView(
            user: user, following: following, followers: followers, requestsIn: sorted(requestsIn),
            requestsOut: sorted(requestsOut), checkInRequests: sorted(checkInRequests), asked: sorted(asked),
            homeSafe: shownHome(user), revealOnMissedCheckIn: graph.revealing.contains(user))
    }

    /// `{viewer}/shared/{walker}` while `walker`'s incident is open; nil when there is nothing to show.
    static func shared(_ walker: WalkerID, in graph: CircleGraph, now: EpochSeconds) -> SharedView? {
        guard let incident = graph.incidents[walker], incident.state == .open else { return nil }
        return SharedView(
            user: walker,
            incident: SharedView.Incident(
                id: incident.incident, level: incident.level, reason: incident.reason, duress: incident.duress,
                openedAt: incident.openedAt, acknowledgedBy: graph.acknowledgedBy[incident.incident]),
            position: graph.positions[walker], updatedAt: now)
    }

    private static func sorted(_ requests: [CircleView.Request]) -> [CircleView.Request] {
        requests.sorted { ($0.at, $0.user) < ($1.at, $1.user) }
    }
}
