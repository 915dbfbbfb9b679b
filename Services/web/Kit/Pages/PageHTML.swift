import Foundation
import SafeWalkService

/// The live page as plain HTML: headings, one polite live region for what changes, large tap
/// targets, no framework. The first render carries everything (a screen reader or a browser
/// without script reads it whole); `/static/live.js` then keeps it current from the event stream.
public enum PageHTML {
    /// Our own script and stylesheet are cached a day (``StaticFiles``); naming them by a digest of
    /// their content means a page served after an upgrade never runs yesterday's script.
    static let scriptVersion = String(PageToken.digest(PageScript.javaScript).prefix(12))
    static let styleVersion = String(PageToken.digest(PageScript.css).prefix(12))

    /// The page for a live (open, waiting or recently closed) incident.
    public static func page(
        _ snapshot: PageSnapshot, token: String, buttonKey: String, tiles: String?
    ) -> String {
        let walker = escape(snapshot.walker)
        let open = snapshot.state == "open"
        let position = open ? snapshot.position : nil
        let mapped = tiles != nil && snapshot.state != "closed"
        var head = #"<link rel="stylesheet" href="/static/live.css?v=\#(styleVersion)">"#
        if mapped { head += #"<link rel="stylesheet" href="/static/leaflet/leaflet.css">"# }
        var body = """
            <main id="page" data-events="/i/\(token)/events" data-state="\(snapshot.state)"\
            \(mapped ? #" data-tiles=""# + escape(tiles!) + "\"" : "")>
            <h1 id="state" aria-live="polite" data-level="\(snapshot.level ?? "")">\(headline(snapshot))</h1>
            <p id="on-it" aria-live="polite">\(escape(snapshot.onIt ?? ""))</p>
            \(walkHTML(snapshot.walk))
            <form id="ack-form" method="post" action="/i/\(token)/ack"\(open && snapshot.onIt != "You are on it" ? "" : " hidden")>
            <input type="hidden" name="key" value="\(buttonKey)">
            <button id="ack-button" type="submit">I’m on it</button>
            <p class="note">Tells \(walker) and everyone else who was told that you are handling it.</p>
            </form>
            <section id="position" aria-labelledby="position-heading">
            <h2 id="position-heading">Last known position</h2>
            \(positionHTML(position, walker: walker, tiles: mapped ? tiles : nil, closed: snapshot.state == "closed"))
            </section>
            <section aria-labelledby="timeline-heading"><h2 id="timeline-heading">What has happened</h2>
            <ol id="timeline">\(snapshot.timeline.map { "<li>\(time($0.at)) \(escape($0.text))</li>" }.joined())</ol>
            </section>
            <section aria-labelledby="people-heading"><h2 id="people-heading">Who is on the list</h2>
            <ul id="people">\(snapshot.people.map(person).joined())</ul>
            </section>
            </main>
            """
        if mapped { body += #"<script src="/static/leaflet/leaflet.min.js" defer></script>"# }
        body += #"<script src="/static/live.js?v=\#(scriptVersion)" defer></script>"#
        return document(title: "SafeWalk: \(walker)", head: head, body: body)
    }

    /// A page with a heading and a sentence: an unknown or expired link, an error.
    public static func message(_ title: String, _ text: String) -> String {
        document(
            title: "SafeWalk: \(escape(title))",
            head: #"<link rel="stylesheet" href="/static/live.css?v=\#(styleVersion)">"#,
            body: "<main><h1>\(escape(title))</h1><p>\(escape(text))</p></main>")
    }

    static func headline(_ snapshot: PageSnapshot) -> String {
        guard snapshot.state == "closed", let at = snapshot.closedAt else { return escape(snapshot.headline) }
        return "\(escape(snapshot.walker)) is safe (at \(time(at)))"
    }

    static func positionHTML(_ position: PageSnapshot.Position?, walker: String, tiles: String?, closed: Bool)
        -> String
    {
        let none = closed ? "No position is shown once \(walker) is safe." : "No position has been reported yet."
        let host = tiles.flatMap(TileSource.origin).map { $0.replacingOccurrences(of: "https://", with: "") }
        let map =
            tiles == nil
            ? ""
            : """
            <div id="map" role="img" aria-label="Map of \(walker)’s last position" hidden></div>
            <p class="note">The map’s pictures come from \(escape(host ?? "a tile server")): loading them tells \
            that server roughly where \(walker) is.</p>
            """
        guard let position else {
            return """
                <p id="no-position">\(none)</p>
                <div id="position-details" hidden><p>Reported <span id="age"></span>, accurate to \
                <span id="accuracy"></span>. Battery: <span id="battery"></span>.</p><p id="coords"></p>
                <p><a id="maps-link" class="button" rel="noreferrer noopener">Open in Maps</a></p></div>\(closed ? "" : map)
                """
        }
        let coordinates = String(format: "%.5f, %.5f", position.lat, position.lon)
        return """
            <p id="no-position" hidden>\(none)</p>
            <div id="position-details"><p>Reported <span id="age" data-tst="\(position.tst)">\(time(position.tst))</span>, \
            accurate to <span id="accuracy">\(position.acc.map { "\(Int($0.rounded())) m" } ?? "unknown")</span>. \
            Battery: <span id="battery">\(position.batt.map { "\(Int($0.rounded()))%" } ?? "unknown")</span>.</p>
            <p id="coords">\(coordinates)</p>
            <p><a id="maps-link" class="button" href="\(escape(position.maps))" rel="noreferrer noopener">Open in Maps</a></p>
            </div>\(map)
            """
    }

    /// "Walking to Library, expected by 21:40": the walker's own words for where, so escaped.
    static func walkHTML(_ walk: PageSnapshot.Walk?) -> String {
        guard let walk else { return #"<p id="walk" hidden></p>"# }
        return #"<p id="walk">Walking to \#(escape(walk.destination)), expected by \#(time(walk.eta))</p>"#
    }

    static func person(_ person: PageSnapshot.Person) -> String {
        let tier = person.tier == 1 ? "" : person.tier == 2 ? " (backup)" : " (dispatch)"
        return "<li>\(escape(person.name))\(tier): \(person.told ? "told" : "not told yet")</li>"
    }

    /// `<time>` in UTC; the script rewrites it in the reader's time zone.
    static func time(_ at: Double) -> String {
        let date = Date(timeIntervalSince1970: at)
        let iso = ISO8601DateFormatter().string(from: date)
        return #"<time datetime="\#(iso)">\#(PageSnapshot.clock(at))</time>"#
    }

    static func document(title: String, head: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer"><meta name="robots" content="noindex">
        <title>\(title)</title>\(head)</head>
        <body>\(body)</body></html>
        """
    }

    /// Text for HTML content and quoted attributes.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
