// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]
/// CI builds our own code (everything but the test targets) with warnings as errors
/// (`SAFEWALK_WARNINGS_AS_ERRORS=1`, set by .ci/run); dependencies keep their warnings. Test
/// targets are left out: Swift Testing's own macro expansions warn on this toolchain
/// ("'@const' value should be initialized with a compile-time value"). Off outside CI, so a
/// newer compiler's new warning never stops someone's build.
let warningsAsErrors = Context.environment["SAFEWALK_WARNINGS_AS_ERRORS"] == "1"
let production: [SwiftSetting] = strict + (warningsAsErrors ? [.unsafeFlags(["-warnings-as-errors"])] : [])

let log = Target.Dependency.product(name: "Logging", package: "swift-log")
let lifecycle = Target.Dependency.product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
let metrics = Target.Dependency.product(name: "Metrics", package: "swift-metrics")
let grdb = Target.Dependency.product(name: "GRDB", package: "GRDB.swift")
let httpClient = Target.Dependency.product(name: "AsyncHTTPClient", package: "async-http-client")
let crypto = Target.Dependency.product(name: "Crypto", package: "swift-crypto")
let cryptoExtras = Target.Dependency.product(name: "_CryptoExtras", package: "swift-crypto")
let heap = Target.Dependency.product(name: "HeapModule", package: "swift-collections")
let clocks = Target.Dependency.product(name: "Clocks", package: "swift-clocks")
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let subprocess = Target.Dependency.product(name: "Subprocess", package: "swift-subprocess")
let hummingbird = Target.Dependency.product(name: "Hummingbird", package: "hummingbird")
let hummingbirdCore = Target.Dependency.product(name: "HummingbirdCore", package: "hummingbird")
let hummingbirdTLS = Target.Dependency.product(name: "HummingbirdTLS", package: "hummingbird")
let hummingbirdTesting = Target.Dependency.product(name: "HummingbirdTesting", package: "hummingbird")
let nioSSL = Target.Dependency.product(name: "NIOSSL", package: "swift-nio-ssl")
let bcrypt = Target.Dependency.product(name: "HummingbirdBcrypt", package: "hummingbird-auth")

/// One SafeWalk service: its logic in a library (`Services/<name>/Kit`, testable and usable by
/// benchmarks) and a thin executable (`Services/<name>/Main`). Services never import each other;
/// they meet only on the broker.
struct ServiceSpec {
    let name: String
    let kit: String
    let extra: [Target.Dependency]
    var testExtra: [Target.Dependency] = []
}

let nioServer: [Target.Dependency] = ["NIOCore", "NIOPosix", "NIOHTTP1"].map { .product(name: $0, package: "swift-nio") }
/// web gzips the walker's app once at start with swift-nio-extras' zlib (issue 20).
let nioEmbedded = Target.Dependency.product(name: "NIOEmbedded", package: "swift-nio")
let nioCompression = Target.Dependency.product(name: "NIOHTTPCompression", package: "swift-nio-extras")

let services = [
    ServiceSpec(name: "location-ingest", kit: "LocationIngestKit",
                extra: ["SafeWalkStorage", grdb, .product(name: "GRDBSQLite", package: "GRDB.swift")]),
    // PINs are kept as PBKDF2 hashes (swift-crypto's _CryptoExtras); deadlines in swift-collections' Heap,
    // position-only writes queued in its Deque (PositionWrites); watches restored straight from
    // SQLite's C API (WatchColumns).
    ServiceSpec(
        name: "watchdog", kit: "WatchdogKit",
        extra: ["SafeWalkStorage", grdb, .product(name: "GRDBSQLite", package: "GRDB.swift"), crypto, cryptoExtras, heap,
                .product(name: "DequeModule", package: "swift-collections")]),
    // Its tests run a fake Gemini on SwiftNIO; lanes by last use in swift-collections' Heap.
    ServiceSpec(name: "companion-chat", kit: "CompanionChatKit", extra: [httpClient, heap], testExtra: nioServer),
    // Webhook signatures are HMAC-SHA256 from swift-crypto.
    ServiceSpec(name: "notifier", kit: "NotifierKit", extra: ["SafeWalkStorage", grdb, httpClient, crypto]),
    ServiceSpec(name: "contacts-store", kit: "ContactsStoreKit", extra: ["SafeWalkStorage", grdb]),
    // Walkers' broker logins, live (issue 17); its tests run the executable on a broker with the plugin.
    ServiceSpec(name: "broker-admin", kit: "BrokerAdminKit",
                extra: ["SafeWalkBrokerPolicy", "SafeWalkStorage", grdb, bcrypt], testExtra: ["broker-admin"]),
]

let shared: [Target.Dependency] = ["SafeWalkCore", "SafeWalkMQTT", "SafeWalkService", log, lifecycle, metrics]

let serviceTargets: [Target] = services.flatMap { spec -> [Target] in
    let kitDependencies: [Target.Dependency] = shared + spec.extra
    let testDependencies: [Target.Dependency] = [.target(name: spec.kit), "TestSupport"] + kitDependencies + spec.testExtra
    return [
        .target(name: spec.kit, dependencies: kitDependencies, path: "Services/\(spec.name)/Kit",
                swiftSettings: production),
        .executableTarget(name: spec.name, dependencies: [.target(name: spec.kit), "SafeWalkService"],
                          path: "Services/\(spec.name)/Main", swiftSettings: production),
        .testTarget(name: "\(spec.kit)Tests",
                    dependencies: testDependencies,
                    path: "Tests/\(spec.kit)Tests", swiftSettings: strict),
    ]
}

/// In-process and through-the-broker benchmarks, run in release mode (see BENCHMARKS.md).
let benchmarkTargets: [Target] = services.filter { ["location-ingest", "watchdog"].contains($0.name) }.map { spec -> Target in
    let dependencies: [Target.Dependency] =
        [.target(name: spec.kit), "TestSupport", "BenchSupport", argumentParser] + shared + spec.extra
    return .executableTarget(name: "\(spec.name)-bench",
                      dependencies: dependencies,
                      path: "Benchmarks/\(spec.name)", exclude: ["RESULTS.md"], swiftSettings: production)
}

/// `web`, the only HTTP edge (issue 17): accounts, sessions, OwnTracks set-up, deletion, on
/// Hummingbird 2 (HTTPS through HummingbirdTLS). Passwords are PBKDF2 (swift-crypto's _CryptoExtras).
/// Its Kit is `SafeWalkWebKit`, not `WebKit`, so it is never mistaken for Apple's. Its tests run the
/// app over loopback (HummingbirdTesting `.live`) and the real executable.
let webTargets: [Target] = [
    .target(name: "SafeWalkWebKit",
            dependencies: shared + ["SafeWalkStorage", grdb, crypto, cryptoExtras, hummingbird, hummingbirdCore,
                                    hummingbirdTLS, nioSSL, httpClient, nioEmbedded, nioCompression] + nioServer,
            path: "Services/web/Kit",
            // The walker's app (issue 20): plain files, copied beside the binaries as
            // SafeWalk_SafeWalkWebKit.resources (compose/Dockerfile copies it too).
            resources: [.copy("AppFiles")], swiftSettings: production),
    .executableTarget(name: "web", dependencies: ["SafeWalkWebKit", "SafeWalkService"], path: "Services/web/Main",
                      swiftSettings: production),
    // What one password verification costs (docs/services/web.md); run with -c release.
    .executableTarget(name: "web-bench", dependencies: ["SafeWalkWebKit", "BenchSupport", argumentParser, subprocess],
                      path: "Services/web/Bench", swiftSettings: production),
    .testTarget(name: "WebKitTests",
                dependencies: ["SafeWalkWebKit", "TestSupport", "web", hummingbirdTesting, nioSSL] + shared
                    + ["SafeWalkStorage", grdb, hummingbird, crypto],
                path: "Tests/WebKitTests", swiftSettings: strict),
]

/// The end-to-end load benchmark and fault injection: the five real executables, a real
/// Mosquitto and the fake SMS gateway (issue 9). Needs `swift build -c release` first.
let e2eLoadBench = Target.executableTarget(
    name: "e2e-load-bench",
    dependencies: ["TestSupport", "BenchSupport", "CompanionChatKit", grdb, argumentParser] + shared,
    path: "Benchmarks/e2e-load", exclude: ["RESULTS.md"], swiftSettings: production)

/// Contacts' live pages under load (issue 18): the real `web` on the secured broker with many open
/// pages; fix-to-page latency beside the broker's own. `swift build -c release --product web
/// --product pages-bench` first.
let pagesBench = Target.executableTarget(
    name: "pages-bench",
    dependencies: ["TestSupport", "BenchSupport", argumentParser, httpClient] + shared,
    path: "Benchmarks/pages", swiftSettings: production)

/// The circle's load figure (issue 19): the real `contacts-store` with 10,000 users' circles; an
/// escalation to every SOS inbox and a position to every live view, beside the broker's own
/// fan-out. `swift build -c release --product contacts-store`, then `--product circle-bench`.
let circleBench = Target.executableTarget(
    name: "circle-bench",
    dependencies: ["TestSupport", "BenchSupport", argumentParser] + shared,
    path: "Benchmarks/circle", exclude: ["RESULTS.md"], swiftSettings: production)

let package = Package(
    name: "SafeWalk",
    platforms: [.macOS(.v15)],
    products: services.map { .executable(name: $0.name, targets: [$0.name]) } + [
        .executable(name: "web", targets: ["web"]),
        .library(name: "SafeWalkCore", targets: ["SafeWalkCore"]),
        .library(name: "SafeWalkMQTT", targets: ["SafeWalkMQTT"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/pointfreeco/swift-clocks.git", from: "1.1.1"),
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CMosquitto",
            path: "Shared/CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        .target(name: "SafeWalkMQTT", dependencies: ["CMosquitto", log], path: "Shared/SafeWalkMQTT",
                swiftSettings: production),
        .target(name: "SafeWalkCore", path: "Shared/SafeWalkCore", swiftSettings: production),
        .target(name: "SafeWalkService",
                dependencies: ["SafeWalkCore", "SafeWalkMQTT", log, lifecycle, metrics, crypto,
                               .product(name: "Prometheus", package: "swift-prometheus"),
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOPosix", package: "swift-nio"),
                               .product(name: "NIOHTTP1", package: "swift-nio")],
                path: "Shared/SafeWalkService", swiftSettings: production),
        .target(name: "SafeWalkStorage", dependencies: [grdb, log], path: "Shared/SafeWalkStorage",
                swiftSettings: production),
        // mosquitto/acl read as rules, and the same rules as a NATS cluster's users: for
        // `safewalk nats-users` and for broker-admin's NATS users file.
        .target(name: "SafeWalkBrokerPolicy", dependencies: ["SafeWalkCore"], path: "Shared/SafeWalkBrokerPolicy",
                swiftSettings: production),
        // The `safewalk` command-line tool: run, watch and simulate walks, manage users and contacts.
        // `safewalk user add --operator` writes web's store itself (SafeWalkWebKit's WebDatabase).
        .target(name: "SafeWalkCLI",
                dependencies: ["SafeWalkCore", "SafeWalkMQTT", "SafeWalkWebKit", "SafeWalkBrokerPolicy", log, argumentParser,
                               httpClient],
                path: "Tools/SafeWalkCLI", swiftSettings: production),
        .executableTarget(name: "safewalk", dependencies: ["SafeWalkCLI"], path: "Tools/safewalk",
                          swiftSettings: production),
        .testTarget(name: "SafeWalkCLITests", dependencies: ["SafeWalkCLI", "TestSupport", "SafeWalkCore", "SafeWalkMQTT", "SafeWalkWebKit",
                                                       "SafeWalkBrokerPolicy"],
                    swiftSettings: strict),
        .target(name: "TestSupport", dependencies: ["SafeWalkMQTT", "SafeWalkCore", log, clocks, httpClient, crypto] + nioServer,
                path: "Tests/TestSupport", swiftSettings: production),
        .testTarget(name: "SafeWalkCoreTests", dependencies: ["SafeWalkCore"], swiftSettings: strict),
        .testTarget(name: "SafeWalkMQTTTests", dependencies: ["SafeWalkMQTT", "TestSupport"], swiftSettings: strict),
        // All five executables on the secured broker, and with accounts broker-admin and web too
        // (builds them first: they are dependencies); the stores are read with GRDB.
        .testTarget(name: "EndToEndTests",
                    dependencies: ["TestSupport", "SafeWalkCore", "SafeWalkMQTT", grdb,
                                   "location-ingest", "watchdog", "companion-chat", "notifier", "contacts-store",
                                   "broker-admin", "web"],
                    swiftSettings: strict),
        // The hostile-input corpus: judged by each service's pure intake, then sent to all five
        // executables on the secured broker, and hostile HTTP to web with broker-admin (builds
        // them first: they are dependencies; web's store is read with GRDB).
        .testTarget(name: "HostileInputTests",
                    dependencies: ["TestSupport", "SafeWalkCore", "SafeWalkMQTT",
                                   "LocationIngestKit", "WatchdogKit", "CompanionChatKit", "NotifierKit", "ContactsStoreKit",
                                   "location-ingest", "watchdog", "companion-chat", "notifier", "contacts-store",
                                   "broker-admin", "web", grdb],
                    swiftSettings: strict),
        .testTarget(name: "BrokerSecurityTests", dependencies: ["SafeWalkMQTT", "TestSupport", log],
                    swiftSettings: strict),
        .testTarget(name: "ServiceTests",
                    dependencies: ["SafeWalkService", "SafeWalkMQTT", "SafeWalkCore", "TestSupport"],
                    swiftSettings: strict),
        // What the benchmarks share: one percentile definition and the `/proc` readers.
        .target(name: "BenchSupport", path: "Benchmarks/BenchSupport", swiftSettings: production),
        // The benchmarks' command lines (misspelt options are errors) and their shared measuring.
        .testTarget(name: "BenchmarkTests",
                    dependencies: ["watchdog-bench", "location-ingest-bench", "e2e-load-bench", "web-bench", "circle-bench",
                                   "BenchSupport", "SafeWalkCore",
                                   argumentParser],
                    swiftSettings: strict),
    ] + serviceTargets + benchmarkTargets + [e2eLoadBench, pagesBench, circleBench] + webTargets
)
