import SafeWalkCore

/// Who is linked to whom, in memory: the persisted part (members, links, requests, check-in
/// requests, home safe, settings, shown views) mirrors contacts-store's SQLite file through
/// ``apply(_:)``; incidents and positions come from the broker's retained messages.
struct CircleGraph: Sendable {
    struct Link: Hashable, Sendable {
        var sos: Bool
        var since: EpochSeconds
    }

    struct CheckInAsk: Hashable, Sendable {
        var at: EpochSeconds
        var revealed: Bool
    }

    /// Lower-cased name → the account's id: names are unique regardless of case.
    private(set) var members: [String: WalkerID] = [:]
    /// follower → followee → link.
    private(set) var following: [WalkerID: [WalkerID: Link]] = [:]
    /// followee → followers (an index of ``following``).
    private(set) var followers: [WalkerID: Set<WalkerID>] = [:]
    /// requester → target → when asked.
    private(set) var requestsOut: [WalkerID: [WalkerID: EpochSeconds]] = [:]
    /// target → requesters (an index of ``requestsOut``).
    private(set) var requestsIn: [WalkerID: Set<WalkerID>] = [:]
    /// asked → asker → the request.
    private(set) var checkIns: [WalkerID: [WalkerID: CheckInAsk]] = [:]
    private(set) var checkedIn: [WalkerID: EpochSeconds] = [:]
    private(set) var homeSafe: [WalkerID: HomeSafe] = [:]
    private(set) var revealing: Set<WalkerID> = []
    /// walker → viewer → incident shown on `{viewer}/shared/{walker}`.
    private(set) var shown: [WalkerID: [WalkerID: String]] = [:]

    /// Open incidents by walker, from `_incidents/{w}`.
    var incidents: [WalkerID: IncidentState] = [:]
    /// Who stands as "on it" for an incident (by incident id), from `_acks/result`.
    var acknowledgedBy: [String: String] = [:]
    /// The walker's preset message (`note`) by incident id, from `{w}/escalation`.
    var notes: [String: String] = [:]
    /// Last positions and watch states of the walkers whose position someone may see.
    var positions: [WalkerID: SharedPosition] = [:]
    var states: [WalkerID: WatchState] = [:]

    init() {}

    // MARK: Reading

    func member(named name: String) -> WalkerID? { members[name.lowercased()] }
    func isMember(_ user: WalkerID) -> Bool { members[user.rawValue.lowercased()] == user }

    func link(_ follower: WalkerID, follows followee: WalkerID) -> Link? { following[follower]?[followee] }

    /// The users `walker` made SOS contacts: their escalations reach them.
    func sosContacts(of walker: WalkerID) -> [WalkerID] {
        (following[walker] ?? [:]).filter(\.value.sos).keys.sorted()
    }

    func followers(of user: WalkerID) -> [WalkerID] { (followers[user] ?? []).sorted() }

    func viewers(of walker: WalkerID) -> [WalkerID: String] { shown[walker] ?? [:] }

    /// Walkers whose positions the circle owner needs: someone sees them now, or they let an SOS
    /// contact see their last known position after a missed check-in request.
    func needsPosition(of walker: WalkerID) -> Bool { shown[walker] != nil || revealing.contains(walker) }

    var watchedWalkers: Set<WalkerID> { Set(shown.keys).union(revealing) }

    /// Every user who appears anywhere in the persisted circle, for republishing views at start.
    var everyone: Set<WalkerID> {
        var users = Set(following.keys).union(followers.keys).union(requestsOut.keys).union(requestsIn.keys)
        users.formUnion(checkIns.keys)
        for askers in checkIns.values { users.formUnion(askers.keys) }
        users.formUnion(homeSafe.keys)
        users.formUnion(revealing)
        users.formUnion(checkedIn.keys)
        return users
    }

    // MARK: Changing

    mutating func apply(_ mutations: [CircleMutation]) {
        for mutation in mutations { apply(mutation) }
    }

    mutating func apply(_ mutation: CircleMutation) {
        switch mutation {
        case .addMember(let user, _):
            members[user.rawValue.lowercased()] = user
        case .removeMember(let user):
            if members[user.rawValue.lowercased()] == user { members[user.rawValue.lowercased()] = nil }
        case .follow(let follower, let followee, let since):
            following[follower, default: [:]][followee] = Link(sos: false, since: since)
            followers[followee, default: []].insert(follower)
        case .unfollow(let follower, let followee):
            following[follower]?[followee] = nil
            if following[follower]?.isEmpty == true { following[follower] = nil }
            followers[followee]?.remove(follower)
            if followers[followee]?.isEmpty == true { followers[followee] = nil }
        case .setSOS(let follower, let followee, let sos):
            following[follower]?[followee]?.sos = sos
        case .request(let from, let to, let at):
            requestsOut[from, default: [:]][to] = at
            requestsIn[to, default: []].insert(from)
        case .dropRequest(let from, let to):
            requestsOut[from]?[to] = nil
            if requestsOut[from]?.isEmpty == true { requestsOut[from] = nil }
            requestsIn[to]?.remove(from)
            if requestsIn[to]?.isEmpty == true { requestsIn[to] = nil }
        case .askCheckIn(let asker, let asked, let at):
            checkIns[asked, default: [:]][asker] = CheckInAsk(at: at, revealed: false)
        case .dropCheckIn(let asker, let asked):
            checkIns[asked]?[asker] = nil
            if checkIns[asked]?.isEmpty == true { checkIns[asked] = nil }
        case .markRevealed(let asker, let asked):
            checkIns[asked]?[asker]?.revealed = true
        case .checkedIn(let user, let at):
            checkedIn[user] = at
        case .homeSafe(let user, let value):
            homeSafe[user] = value
        case .reveal(let user, let on):
            if on { revealing.insert(user) } else { revealing.remove(user) }
        case .show(let walker, let viewer, let incident):
            shown[walker, default: [:]][viewer] = incident
        case .hide(let walker, let viewer):
            shown[walker]?[viewer] = nil
            if shown[walker]?.isEmpty == true { shown[walker] = nil }
        case .deliver:
            break  // inboxes live in SQLite only
        case .erase(let user):
            erase(user)
        }
    }

    private mutating func erase(_ user: WalkerID) {
        apply(.removeMember(user))
        for followee in (following[user] ?? [:]).keys { apply(.unfollow(follower: user, followee: followee)) }
        for follower in followers[user] ?? [] { apply(.unfollow(follower: follower, followee: user)) }
        for target in (requestsOut[user] ?? [:]).keys { apply(.dropRequest(from: user, to: target)) }
        for requester in requestsIn[user] ?? [] { apply(.dropRequest(from: requester, to: user)) }
        checkIns[user] = nil
        for asked in Array(checkIns.keys) { apply(.dropCheckIn(asker: user, asked: asked)) }
        checkedIn[user] = nil
        homeSafe[user] = nil
        revealing.remove(user)
        shown[user] = nil
        for walker in Array(shown.keys) { apply(.hide(walker: walker, viewer: user)) }
        incidents[user] = nil
        positions[user] = nil
        states[user] = nil
    }
}
