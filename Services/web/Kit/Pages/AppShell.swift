import Crypto
import Foundation
import Logging

/// The walker's app (issue 20): plain HTML, CSS and JavaScript modules from `AppFiles/`, read once
/// at start into memory (like ``StaticFiles``: only files that were there are ever served, so no
/// request path reaches anything else on disk). The files ship as the package's resources
/// (`SafeWalk_SafeWalkWebKit.resources/AppFiles` beside the binary); `SAFEWALK_APP_DIR` names
/// another directory (editing the app without a rebuild).
///
/// Every file is trimmed (comment lines and indentation) and gzipped once here, and named under
/// `/app/{version}/`, where `version` is a digest of all of them: a page served after an upgrade
/// never mixes yesterday's modules with today's, and each file can be cached for good.
///
/// The monitoring desk (issue 21) ships in the same directory: `ops.html`, served at `/ops`, and
/// its style and modules under `desk/`, versioned and served like the app's, but never in the
/// walker's offline list (the desk is not part of the walker's app) nor in its first load.
public struct AppShell: Sendable {
    public struct File: Sendable, Equatable {
        public var type: String
        public var bytes: [UInt8]
        /// The same bytes gzipped, when that is smaller.
        public var gzipped: [UInt8]?
    }

    /// The name of the resource bundle SwiftPM copies beside the binaries.
    static let bundleName = "SafeWalk_SafeWalkWebKit.resources"
    /// Files served at the root or not at all, never under `/app/`.
    static let rootFiles: Set<String> = ["index.html", "ops.html", "sw.js", "app.webmanifest", "README.md"]
    /// The desk's files under `/app/{version}/`: served, but not the walker's app.
    static let deskFolder = "desk/"

    /// Twelve hex digits of SHA-256 over every file's name and bytes.
    public let version: String
    /// `/app/{version}/{name}`, by name (`js/main.js`).
    public let files: [String: File]
    /// `/` (with the version and the map's tile template filled in), `/sw.js`, `/app.webmanifest`.
    public let index: File?
    /// `/ops`: the monitoring desk's page, filled in like `/`.
    public let desk: File?
    public let worker: File?
    public let manifest: File?
    /// The origin map tiles come from, for the Content-Security-Policy (nil: no map).
    public let tileOrigin: String?

    /// Reads `directory` (nil: nothing found; `/` then says the app is missing). `tiles` is the
    /// tile URL template when web serves Leaflet, else nil.
    public init(directory: URL?, tiles: String?, logger: Logger) {
        var raw: [String: [UInt8]] = [:]
        if let directory {
            raw = Self.read(directory)
            if raw["index.html"] == nil {
                logger.error("the walker's app is missing its index.html", metadata: ["directory": "\(directory.path)"])
            }
        } else {
            logger.error("the walker's app files were not found: / answers 503 (set SAFEWALK_APP_DIR)")
        }
        var digest = SHA256()
        for name in raw.keys.sorted() {
            digest.update(data: Array(name.utf8) + [0])
            digest.update(data: raw[name]!)
        }
        let version = digest.finalize().map { String(format: "%02x", $0) }.joined().prefix(12)
        self.version = String(version)
        tileOrigin = tiles.flatMap(TileSource.origin)

        var files: [String: File] = [:]
        for (name, bytes) in raw where !Self.rootFiles.contains(name) {
            files[name] = Self.file(name, bytes)
        }
        self.files = files
        let shell =
            ["/", "/app.webmanifest"]
            + files.keys.filter { !$0.hasPrefix(Self.deskFolder) }.sorted().map { "/app/\(version)/\($0)" }
        let shellJSON = "[" + shell.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        let pageValues = ["VERSION": String(version), "TILES": PageHTML.escape(tiles ?? "")]
        index = raw["index.html"].map { Self.file("index.html", Self.fill($0, pageValues)) }
        desk = raw["ops.html"].map { Self.file("ops.html", Self.fill($0, pageValues)) }
        worker = raw["sw.js"].map {
            Self.file("sw.js", Self.fill($0, ["VERSION": String(version), "SHELL": shellJSON]))
        }
        manifest = raw["app.webmanifest"].map {
            Self.file("app.webmanifest", Self.fill($0, ["VERSION": String(version)]))
        }
        logger.info(
            "walker's app loaded",
            metadata: [
                "version": "\(version)", "files": "\(raw.count)",
                "firstLoadBytes": "\(firstLoad.plain)", "firstLoadGzipped": "\(firstLoad.gzipped)",
            ])
    }

    /// What opening the app costs before the map: the page, its style and every module, plain and
    /// gzipped (the desk's files are not the walker's).
    public var firstLoad: (plain: Int, gzipped: Int) {
        let parts =
            [index].compactMap { $0 }
            + files.filter {
                !$0.key.hasPrefix(Self.deskFolder) && ($0.key.hasSuffix(".js") || $0.key.hasSuffix(".css"))
            }.map(\.value)
        return (parts.reduce(0) { $0 + $1.bytes.count }, parts.reduce(0) { $0 + ($1.gzipped ?? $1.bytes).count })
    }

    /// `SAFEWALK_APP_DIR` when set; else the resource bundle beside the running binary (the
    /// executable, or the test runner in tests); else the source tree this was built from (a
    /// developer's checkout).
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let set = environment["SAFEWALK_APP_DIR"], !set.isEmpty { return URL(fileURLWithPath: set) }
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent(bundleName))
        }
        candidates.append(Bundle.main.bundleURL.appendingPathComponent(bundleName))
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        for bundle in candidates {
            let directory = bundle.appendingPathComponent("AppFiles")
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("index.html").path) {
                return directory
            }
        }
        let tree = source.appendingPathComponent("AppFiles")
        return FileManager.default.fileExists(atPath: tree.appendingPathComponent("index.html").path) ? tree : nil
    }

    /// Every regular file under `directory`, by its relative path; names that could never be
    /// asked for (hidden files, anything but the app's own kinds) are skipped.
    static func read(_ directory: URL) -> [String: [UInt8]] {
        let base = directory.standardizedFileURL.resolvingSymlinksInPath().path
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [:] }
        var found: [String: [UInt8]] = [:]
        while let name = walker.nextObject() as? String {
            guard !name.split(separator: "/").contains(where: { $0.hasPrefix(".") }), contentType(of: name) != nil,
                let data = FileManager.default.contents(atPath: base + "/" + name)
            else { continue }
            found[name] = Array(data)
        }
        return found
    }

    static func contentType(of name: String) -> String? {
        switch name.split(separator: ".").last.map(String.init) {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "webmanifest": "application/manifest+json"
        case "json": "application/json"
        case "md": "text/markdown; charset=utf-8"
        default: nil
        }
    }

    static func file(_ name: String, _ bytes: [UInt8]) -> File {
        let type = contentType(of: name) ?? "application/octet-stream"
        let trimmed = Trim.text(bytes, name: name)
        let gzipped = type.hasPrefix("image/png") ? nil : Gzip.compress(trimmed)
        return File(type: type, bytes: trimmed, gzipped: gzipped.flatMap { $0.count < trimmed.count ? $0 : nil })
    }

    /// `{{NAME}}` placeholders replaced.
    static func fill(_ bytes: [UInt8], _ values: [String: String]) -> [UInt8] {
        var text = String(decoding: bytes, as: UTF8.self)
        for (name, value) in values { text = text.replacingOccurrences(of: "{{\(name)}}", with: value) }
        return Array(text.utf8)
    }
}
