import Foundation
import Hummingbird
import Logging

/// The files web serves under `/static/`: its page script and style, and Debian's libjs-leaflet
/// (`SAFEWALK_LEAFLET_DIR`). Read once at start into memory: only files that were there are ever
/// served, so no request path can reach anything else on disk.
public struct StaticFiles: Sendable {
    public struct File: Sendable {
        public var type: String
        public var bytes: [UInt8]
        /// The same file gzipped, when the directory has one (`leaflet.min.js.gz`).
        public var gzipped: [UInt8]?
    }

    public private(set) var files: [String: File] = [:]

    /// A day: the same for every visitor and secret to none (no token, no walker in them), so a
    /// phone need not fetch Leaflet's 150 KB again for every page it opens. Pages name `live.js` and
    /// `live.css` with a digest of their content (`?v=`, ``PageHTML``), so an upgrade is never
    /// served yesterday's copy.
    static let cacheControl = "public, max-age=86400"

    /// Whether `response` keeps the caching ``cacheControl`` gives it: only a file this type
    /// served (its handler set it) at a `/static/` path. Pages, the API and every error stay
    /// `no-store`.
    static func isCacheable(_ response: Response, at path: String) -> Bool {
        path.hasPrefix("/static/") && response.status == .ok && response.headers[.cacheControl] == cacheControl
    }

    public init(leafletDirectory: String?, logger: Logger) {
        files["live.js"] = File(type: "text/javascript; charset=utf-8", bytes: Array(PageScript.javaScript.utf8))
        files["live.css"] = File(type: "text/css; charset=utf-8", bytes: Array(PageScript.css.utf8))
        guard let leafletDirectory else { return }
        let base = URL(fileURLWithPath: leafletDirectory)
        let wanted: [(String, String)] = [
            ("leaflet.min.js", "text/javascript; charset=utf-8"), ("leaflet.css", "text/css; charset=utf-8"),
            ("images/marker-icon.png", "image/png"), ("images/marker-icon-2x.png", "image/png"),
            ("images/marker-shadow.png", "image/png"), ("images/layers.png", "image/png"),
            ("images/layers-2x.png", "image/png"),
        ]
        for (name, type) in wanted {
            guard let data = FileManager.default.contents(atPath: base.appendingPathComponent(name).path) else {
                logger.warning("leaflet file missing: the page shows coordinates only", metadata: ["file": "\(name)"])
                continue
            }
            let gzipped = FileManager.default.contents(atPath: base.appendingPathComponent(name + ".gz").path)
            files["leaflet/" + name] = File(type: type, bytes: Array(data), gzipped: gzipped.map(Array.init))
        }
    }

    /// Whether the map can be drawn at all.
    public var hasLeaflet: Bool { files["leaflet/leaflet.min.js"] != nil && files["leaflet/leaflet.css"] != nil }
}
