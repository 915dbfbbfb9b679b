// swift-tools-version:6.1
import PackageDescription

/// The five services. Each is its own executable in `Services/<name>/`; none imports another:
/// they meet only on the broker.
let services = ["location-ingest", "watchdog", "companion-chat", "notifier", "contacts-store"]

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

func service(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            "SafeWalkCore", "SafeWalkMQTT", "SafeWalkService",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ],
        path: "Services/\(name)",
        swiftSettings: strict
    )
}

let package = Package(
    name: "SafeWalk",
    platforms: [.macOS(.v15)],
    products: services.map { .executable(name: $0, targets: [$0]) } + [
        .library(name: "SafeWalkCore", targets: ["SafeWalkCore"]),
        .library(name: "SafeWalkMQTT", targets: ["SafeWalkMQTT"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CMosquitto",
            path: "Shared/CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        .target(
            name: "SafeWalkMQTT",
            dependencies: ["CMosquitto", .product(name: "Logging", package: "swift-log")],
            path: "Shared/SafeWalkMQTT",
            swiftSettings: strict
        ),
        .target(name: "SafeWalkCore", path: "Shared/SafeWalkCore", swiftSettings: strict),
        .target(
            name: "SafeWalkService",
            dependencies: [
                "SafeWalkCore", "SafeWalkMQTT",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Shared/SafeWalkService",
            swiftSettings: strict
        ),
        .target(
            name: "TestSupport",
            dependencies: ["SafeWalkMQTT", .product(name: "Logging", package: "swift-log")],
            path: "Tests/TestSupport",
            swiftSettings: strict
        ),
        .testTarget(name: "SafeWalkCoreTests", dependencies: ["SafeWalkCore"], swiftSettings: strict),
        .testTarget(
            name: "SafeWalkMQTTTests",
            dependencies: ["SafeWalkMQTT", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ServiceTests",
            dependencies: ["SafeWalkService", "SafeWalkMQTT", "SafeWalkCore", "TestSupport"],
            swiftSettings: strict
        ),
    ] + services.map(service)
)
