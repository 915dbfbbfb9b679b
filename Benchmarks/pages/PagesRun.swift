import AsyncHTTPClient
import BenchSupport
import Foundation
import NIOCore
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import Synchronization
import TestSupport

/// One benchmark run: the broker, web, the publishers standing in for the services, and the pages.
final class PagesRun: Sendable {
    let broker: MosquittoBroker
    let web: ChildProcess
    let port: Int
    let walkers: [WalkerID]
    let tokens: [String]
    let publisher: MQTTClient
    let observer: MQTTClient
    let client: HTTPClient
    /// Per walker: the latitude of the fix in flight and when it was published.
    let pending = Mutex<[Int: (lat: Double, sentAt: ContinuousClock.Instant)]>([:])
    let pageSamples = Mutex<[Double]>([])
    let brokerSamples = Mutex<[Double]>([])
    /// Per published fix (topic and payload): when it was published, for the baseline subscriber.
    let sentAt = Mutex<[String: ContinuousClock.Instant]>([:])
    let connected = Atomic<Int>(0)
    let streams = Mutex<[Task<Void, Never>]>([])

    static let services = ["watchdog", "notifier", "location-ingest", "web", "operator"]

    private init(
        broker: MosquittoBroker, web: ChildProcess, port: Int, walkers: [WalkerID], tokens: [String],
        publisher: MQTTClient, observer: MQTTClient, client: HTTPClient
    ) {
        self.broker = broker
        self.web = web
        self.port = port
        self.walkers = walkers
        self.tokens = tokens
        self.publisher = publisher
        self.observer = observer
        self.client = client
    }

    static func password(_ user: String) -> String { "bench-\(user)" }

    /// The broker with the repo's ACL, web, and `incidents` open incidents published as services would.
    static func start(incidents: Int) async throws -> PagesRun {
        let broker = try await SecuredBroker.start(
            users: Dictionary(uniqueKeysWithValues: services.map { ($0, password($0)) }))
        let port = try Loopback.freePorts(1, avoiding: [broker.port])[0]
        let web = try ServiceProcess.start(
            .web, broker: broker,
            environment: [
                "SAFEWALK_MQTT_USERNAME": "web", "SAFEWALK_MQTT_PASSWORD": password("web"),
                "SAFEWALK_HTTP_PORT": "\(port)", "SAFEWALK_TRUSTED_PROXY": "127.0.0.1",
                "SAFEWALK_PUBLIC_URL": "http://127.0.0.1:\(port)", "SAFEWALK_LOG_LEVEL": "warning",
            ])
        try await eventually("web on \(port)", within: 30) { Loopback.isAccepting(port: port) }
        let walkers = (0..<incidents).map { WalkerID(validating: String(format: "w%05d", $0))! }
        let tokens = walkers.map { _ in PageToken.mint() }
        // Each service publishes what it owns: the same users, so the same ACL, as production.
        let watchdog = try await broker.client(username: "watchdog", password: password("watchdog"))
        let notifier = try await broker.client(username: "notifier", password: password("notifier"))
        let publisher = try await broker.client(username: "location-ingest", password: password("location-ingest"))
        let observer = try await broker.client(username: "operator", password: password("operator"))
        let now = Date().timeIntervalSince1970
        for (index, walker) in walkers.enumerated() {
            let incident = "bench-\(walker)"
            try await watchdog.publish(
                Topic.incident(walker).name(),
                payload: SafeWalkJSON.encode(
                    IncidentState(
                        incident: incident, walker: walker, state: .open, reason: .needHelp, level: .red,
                        duress: false, openedAt: now)), retain: true)
            try await notifier.publish(
                Topic.ladder(walker).name(),
                payload: SafeWalkJSON.encode(
                    LadderState(
                        incident: incident, walker: walker, state: .open, level: .red, reason: .needHelp,
                        openedAt: now, tier: 1,
                        recipients: [
                            LadderRecipient(
                                name: "Mum", tier: 1, channel: "sms-http", display: "+*******0101",
                                page: PageToken.digest(tokens[index]), toldAt: now)
                        ],
                        timeline: [LadderEntry(at: now, kind: .opened, text: "\(walker) asked for help")])),
                retain: true)
            try await publisher.publish(
                Topic.position(walker).name(), payload: position(walker, lat: 30.28, at: now), retain: true)
        }
        await watchdog.shutdown()
        await notifier.shutdown()
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(120), concurrentHTTP1ConnectionsPerHostSoftLimit: incidents + 64)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let run = PagesRun(
            broker: broker, web: web, port: port, walkers: walkers, tokens: tokens, publisher: publisher,
            observer: observer, client: client)
        // web learns of the pages from the retained messages above: wait until it knows the last.
        do {
            try await eventually("web to know \(incidents) pages", within: 120) {
                (try? await run.fetch("/i/\(tokens[incidents - 1])", index: incidents - 1)) != nil
            }
        } catch {
            let log = (try? String(contentsOf: web.logFile, encoding: .utf8)) ?? ""
            await run.stop()
            throw HarnessError.processFailed("\(error)\n\(log.suffix(3000))")
        }
        return run
    }

    static func position(_ walker: WalkerID, lat: Double, at time: Double) throws -> Data {
        try SafeWalkJSON.encode(
            PositionUpdate(fix: LocationFix(lat: lat, lon: -97.7341, tst: time, acc: 5), moved: true, lastMovedAt: time)
        )
    }

    /// A distinct client address per page, as contacts on their own phones (web trusts loopback as
    /// a proxy here, so its per-address limits see many contacts, not one).
    func address(_ index: Int) -> String { "10.\(index >> 16 & 0xFF).\(index >> 8 & 0xFF).\(index & 0xFF)" }

    func request(_ path: String, index: Int) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.headers.add(name: "X-Forwarded-For", value: address(index))
        return request
    }

    /// Times the page's first render `count` times: the HTML, then every script and stylesheet it
    /// names, one after another (a browser fetches them in parallel: this is the slower bound).
    func firstRenders(_ count: Int) async throws -> (times: SortedSamples, bytes: Int, files: Int) {
        var times: [Double] = []
        var bytes = 0
        var files = 0
        for attempt in 0..<count {
            let index = attempt % walkers.count
            let start = ContinuousClock.now
            let html = try await fetch("/i/\(tokens[index])", index: index)
            var total = html.count
            let names = Self.subresources(String(decoding: html, as: UTF8.self))
            for name in names { total += try await fetch(name, index: index).count }
            times.append((ContinuousClock.now - start).seconds)
            (bytes, files) = (total, names.count)
        }
        return (SortedSamples(times), bytes, files)
    }

    func fetch(_ path: String, index: Int) async throws -> Data {
        var request = request(path, index: index)
        // As a browser asks: the bytes counted are the bytes a contact's phone would download.
        request.headers.add(name: "Accept-Encoding", value: "gzip")
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 8 << 20)
        guard response.status.code == 200 else {
            throw HarnessError.processFailed("GET \(path): HTTP \(response.status.code)")
        }
        return Data(body.readableBytesView)
    }

    /// Same-origin `src="/…"` and `href="/…"` of scripts and stylesheets.
    static func subresources(_ html: String) -> [String] {
        html.matches(of: /(?:src|href)="(\/[^"]+\.(?:js|css))"/).map { String($0.output.1) }
    }

    /// Opens every page's event stream and waits until each has its first event.
    func connectPages() async throws {
        for index in walkers.indices {
            let task = Task { [self] in await stream(index) }
            streams.withLock { $0.append(task) }
        }
        try await eventually("\(walkers.count) pages connected", within: 120) {
            connected.load(ordering: .relaxed) == walkers.count
        }
    }

    private func stream(_ index: Int) async {
        do {
            let response = try await client.execute(
                request("/i/\(tokens[index])/events", index: index), timeout: .hours(1))
            var first = true
            var line: [UInt8] = []
            for try await buffer in response.body {
                for byte in buffer.readableBytesView {
                    guard byte == 0x0a else {
                        line.append(byte)
                        continue
                    }
                    if line.starts(with: Array("data:".utf8)) {
                        if first {
                            first = false
                            connected.add(1, ordering: .relaxed)
                        }
                        received(index, data: Data(line.dropFirst(5)))
                    }
                    line.removeAll(keepingCapacity: true)
                }
            }
        } catch {
            if !Task.isCancelled { print("page \(index): \(error)") }
        }
    }

    private func received(_ index: Int, data: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: data), let lat = Self.latitude(in: object) else {
            return
        }
        let arrived = ContinuousClock.now
        let sample: Double? = pending.withLock { pending in
            guard let expected = pending[index], abs(expected.lat - lat) < 1e-7 else { return nil }
            pending[index] = nil
            return (arrived - expected.sentAt).seconds
        }
        if let sample { pageSamples.withLock { $0.append(sample) } }
    }

    /// The first `lat` anywhere in a decoded JSON value.
    static func latitude(in object: Any) -> Double? {
        if let dictionary = object as? [String: Any] {
            if let lat = dictionary["lat"] as? Double { return lat }
            for value in dictionary.values { if let lat = latitude(in: value) { return lat } }
        } else if let array = object as? [Any] {
            for value in array { if let lat = latitude(in: value) { return lat } }
        }
        return nil
    }

    /// Publishes a fix for each walker every `interval` seconds, spread evenly, for `seconds`, and
    /// measures its arrival on the walker's page and at a plain subscriber.
    func measureFixes(seconds: Double, interval: Double) async throws
        -> (page: SortedSamples, broker: SortedSamples, sent: Int, missed: Int)
    {
        let baseline = try await observer.subscribe("safewalk/+/position", qos: .atLeastOnce)
        let listener = Task { [self] in
            for await message in baseline {
                let arrived = ContinuousClock.now
                let key = message.topic + String(decoding: message.payload, as: UTF8.self)
                if let start = sentAt.withLock({ $0.removeValue(forKey: key) }) {
                    brokerSamples.withLock { $0.append((arrived - start).seconds) }
                }
            }
        }
        let gap = interval / Double(walkers.count)
        let start = ContinuousClock.now
        var sent = 0
        var step = 0
        while (ContinuousClock.now - start).seconds < seconds {
            let index = step % walkers.count
            let walker = walkers[index]
            let lat = 30.28 + Double(step + 1) * 1e-6
            let payload = try Self.position(walker, lat: lat, at: Date().timeIntervalSince1970)
            let topic = Topic.position(walker).name()
            let now = ContinuousClock.now
            pending.withLock { $0[index] = (lat, now) }
            sentAt.withLock { $0[topic + String(decoding: payload, as: UTF8.self)] = now }
            try await publisher.publish(topic, payload: payload, retain: true)
            sent += 1
            step += 1
            let next = start + .seconds(Double(step) * gap)
            if next > ContinuousClock.now { try await Task.sleep(until: next, clock: .continuous) }
        }
        try await Task.sleep(for: .seconds(2))  // the last fixes' way to the pages
        listener.cancel()
        baseline.cancel()
        let page = pageSamples.withLock { $0 }
        return (SortedSamples(page), SortedSamples(brokerSamples.withLock { $0 }), sent, sent - page.count)
    }

    func webCPUSeconds() -> Double { ProcStat.read(pid: web.pid)?.cpuSeconds ?? .nan }

    func stop() async {
        streams.withLock { $0.forEach { $0.cancel() } }
        try? await client.shutdown()
        await publisher.shutdown()
        await observer.shutdown()
        web.signal(SIGTERM)
        _ = try? await web.waitForExit(within: 10)
        await broker.shutdown()
    }
}
