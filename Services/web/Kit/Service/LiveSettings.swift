import Foundation
import SafeWalkService

/// The settings of contacts' live pages and of the SMS gateway's callbacks (docs/services/web.md,
/// "Live pages and the SMS gateway").
public struct LiveSettings: Sendable {
    /// OpenStreetMap's tiles: what the page uses unless told otherwise.
    public static let defaultTiles = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"

    /// `SAFEWALK_PUBLIC_URL`: how the internet reaches web (`https://safewalk.example.org`), the
    /// base of the URL Twilio signs. Without a trailing slash.
    public var publicURL: String?
    /// `SAFEWALK_TWILIO_AUTH_TOKEN`: the gateway routes answer 404 without it. Never logged.
    public var twilioAuthToken: String?
    /// `SAFEWALK_LEAFLET_DIR` [/usr/share/javascript/leaflet]: Debian's libjs-leaflet, served under
    /// `/static/leaflet/`.
    public var leafletDirectory = "/usr/share/javascript/leaflet"
    /// `SAFEWALK_MAP_TILES` [OpenStreetMap's]; `none` gives coordinates without a map (nil here).
    public var tiles: String? = LiveSettings.defaultTiles
    /// `SAFEWALK_PAGE_GRACE` [1800 s]: how long a page still answers after its incident closed.
    public var grace: Double = 1_800
    /// `SAFEWALK_ACK_WAIT` [5 s]: the longest wait for the notifier's answer to "I'm on it".
    public var acknowledgementWait: Duration = .seconds(5)
    /// How often an open event stream gets a comment, so proxies and phones keep it open.
    public var heartbeat: Duration = .seconds(15)

    public init() {}

    public init(environment env: EnvironmentReader) throws(ConfigurationError) {
        if let url = env.string("SAFEWALK_PUBLIC_URL") {
            guard let parsed = URL(string: url), let scheme = parsed.scheme, ["http", "https"].contains(scheme),
                parsed.host != nil
            else { throw .invalid(name: "SAFEWALK_PUBLIC_URL", value: url, expected: "an http(s) URL") }
            publicURL = url.hasSuffix("/") ? String(url.dropLast()) : url
        }
        twilioAuthToken = env.string("SAFEWALK_TWILIO_AUTH_TOKEN").flatMap { $0.isEmpty ? nil : $0 }
        if twilioAuthToken != nil && publicURL == nil {
            // Twilio signs the URL it called: without it no signature can be checked.
            throw .missing(name: "SAFEWALK_PUBLIC_URL", why: "SAFEWALK_TWILIO_AUTH_TOKEN is set")
        }
        leafletDirectory = env.string("SAFEWALK_LEAFLET_DIR", default: leafletDirectory)
        let tiles = env.string("SAFEWALK_MAP_TILES", default: Self.defaultTiles)
        if tiles == "none" {
            self.tiles = nil
        } else {
            guard TileSource.origin(of: tiles) != nil, tiles.contains("{z}") else {
                throw .invalid(
                    name: "SAFEWALK_MAP_TILES", value: tiles,
                    expected: "an https URL template with {z}/{x}/{y}, or none")
            }
            self.tiles = tiles
        }
        grace = try env.seconds("SAFEWALK_PAGE_GRACE", default: grace)
        acknowledgementWait = .seconds(try env.seconds("SAFEWALK_ACK_WAIT", default: 5))
    }
}

/// Where map tiles come from, as the page's Content-Security-Policy has to name it.
public enum TileSource {
    /// `https://tile.openstreetmap.org` for OpenStreetMap's template; `{s}` subdomains become `*`.
    /// Nil for anything that is not an http(s) URL with a host and no quote or space (it goes into
    /// a header and an HTML attribute).
    public static func origin(of template: String) -> String? {
        guard template.hasPrefix("https://") || template.hasPrefix("http://"),
            !template.contains(where: {
                $0 == "\"" || $0 == "'" || $0 == "<" || $0 == ">" || $0.isWhitespace || $0 == ";"
            })
        else { return nil }
        let afterScheme = template.range(of: "://")!.upperBound
        let host = template[afterScheme...].prefix { $0 != "/" }
        guard !host.isEmpty else { return nil }
        let scheme = template[..<afterScheme]
        return scheme + host.replacingOccurrences(of: "{s}", with: "*")
    }
}
