import Foundation
import Logging
import Testing

@testable import SafeWalkWebKit

/// The walker's app as web loads it: found where it ships, complete (every file the shell, its
/// modules and its service worker name exists), versioned by content, trimmed and gzipped
/// without changing what it says.
@Suite struct AppShellTests {
    static let logger: Logger = {
        var logger = Logger(label: "app-shell-test")
        logger.logLevel = .critical
        return logger
    }()
    static let source = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Services/web/Kit/AppFiles")

    static func shell(_ directory: URL? = AppShell.locate(), tiles: String? = nil) -> AppShell {
        AppShell(directory: directory, tiles: tiles, logger: logger)
    }

    @Test func theAppIsFoundBesideTheBinaryOrInTheSetting() throws {
        let found = try #require(AppShell.locate(environment: [:]))
        #expect(FileManager.default.fileExists(atPath: found.appendingPathComponent("index.html").path))
        #expect(AppShell.locate(environment: ["SAFEWALK_APP_DIR": "/elsewhere"])?.path == "/elsewhere")
        let missing = Self.shell(nil)
        #expect(missing.index == nil && missing.files.isEmpty)
    }

    @Test func everyFileTheShellNamesExists() throws {
        let shell = Self.shell()
        let index = String(decoding: try #require(shell.index).bytes, as: UTF8.self)
        #expect(!index.contains("{{"), "every placeholder filled")
        let prefix = "/app/\(shell.version)/"
        let named = Self.matches(#"(?:src|href)="(/[^"]*)""#, in: index)
        #expect(named.count >= 4)
        for path in named {
            if path.hasPrefix(prefix) {
                #expect(shell.files[String(path.dropFirst(prefix.count))] != nil, "\(path)")
            } else {
                #expect(path == "/app.webmanifest", "\(path) is not one of the app's files")
            }
        }
        // Every module's imports, relative to the module.
        for (name, file) in shell.files where name.hasSuffix(".js") {
            let text = String(decoding: file.bytes, as: UTF8.self)
            let folder = (name as NSString).deletingLastPathComponent
            for imported in Self.matches(#"from "\./([^"]+)""#, in: text) {
                let target = folder.isEmpty ? imported : folder + "/" + imported
                #expect(shell.files[target] != nil, "\(name) imports \(imported)")
            }
        }
        // The service worker's offline list, and the manifest's icon.
        let worker = String(decoding: try #require(shell.worker).bytes, as: UTF8.self)
        let list = try #require(Self.matches(#"const SHELL = (\[[^\]]*\]);"#, in: worker).first)
        let cached = try #require(try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [String])
        #expect(cached.contains("/") && cached.contains(prefix + "js/main.js") && cached.contains(prefix + "app.css"))
        for path in cached where path.hasPrefix(prefix) {
            #expect(shell.files[String(path.dropFirst(prefix.count))] != nil, "\(path)")
        }
        let manifestBytes = Data(try #require(shell.manifest).bytes)
        let manifest = try #require(try JSONSerialization.jsonObject(with: manifestBytes) as? [String: Any])
        #expect(manifest["start_url"] as? String == "/")
        let icons = try #require(manifest["icons"] as? [[String: Any]])
        for icon in icons {
            let path = try #require(icon["src"] as? String)
            #expect(shell.files[String(path.dropFirst(prefix.count))] != nil, "\(path)")
        }
    }

    /// The Content-Security-Policy forbids inline script and style: the shell and the desk's page
    /// must need neither.
    @Test func theShellHasNoInlineScriptOrStyle() throws {
        let shell = Self.shell()
        for page in [try #require(shell.index), try #require(shell.desk)] {
            let html = String(decoding: page.bytes, as: UTF8.self)
            #expect(Self.matches(#"(<script(?![^>]*\ssrc=)[^>]*>)"#, in: html).isEmpty)
            #expect(!html.contains("<style"))
            #expect(Self.matches(#"(\sstyle=)"#, in: html).isEmpty)
            #expect(Self.matches(#"(\son[a-z]+=)"#, in: html).isEmpty, "no inline event handlers")
        }
    }

    /// The monitoring desk (`/ops`) ships beside the app: its page filled in like the shell, its
    /// style and modules under the version, and none of it in the walker's offline list or first
    /// load.
    @Test func theDeskIsServedBesideTheAppButIsNotPartOfIt() throws {
        let shell = Self.shell()
        let page = String(decoding: try #require(shell.desk).bytes, as: UTF8.self)
        #expect(!page.contains("{{"), "every placeholder filled")
        #expect(page.contains(#"id="desk-signin""#) && page.contains(#"id="desk-incidents""#))
        let prefix = "/app/\(shell.version)/"
        let named = Self.matches(#"(?:src|href)="(/[^"]*)""#, in: page)
        #expect(named.contains(prefix + "desk/js/main.js") && named.contains(prefix + "desk/desk.css"))
        for path in named {
            #expect(path.hasPrefix(prefix), "\(path) is not one of the app's files")
            #expect(shell.files[String(path.dropFirst(prefix.count))] != nil, "\(path)")
        }
        #expect(shell.files["ops.html"] == nil, "a root file, never under /app/")
        for module in ["main", "api", "board", "map", "incident", "session"] {
            #expect(shell.files["desk/js/\(module).js"] != nil, "desk/js/\(module).js")
        }

        let worker = String(decoding: try #require(shell.worker).bytes, as: UTF8.self)
        let list = try #require(Self.matches(#"const SHELL = (\[[^\]]*\]);"#, in: worker).first)
        let cached = try #require(try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [String])
        #expect(
            !cached.contains { $0.contains("/desk/") || $0.hasSuffix("/ops") || $0.hasSuffix("ops.html") }, "\(cached)")
        #expect(cached.contains(prefix + "js/main.js"))

        // The walker's first load is what it was without the desk.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("app-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: Self.source, to: copy)
        try FileManager.default.removeItem(at: copy.appendingPathComponent("desk"))
        try FileManager.default.removeItem(at: copy.appendingPathComponent("ops.html"))
        let withoutDesk = Self.shell(copy)
        #expect(withoutDesk.desk == nil)
        #expect(withoutDesk.firstLoad.plain == Self.shell(Self.source).firstLoad.plain)
    }

    @Test func theVersionChangesWithAnyFileAndOnlyThen() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("app-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: Self.source, to: copy)
        let before = Self.shell(copy)
        #expect(Self.shell(copy).version == before.version)
        let css = copy.appendingPathComponent("app.css")
        try (String(contentsOf: css, encoding: .utf8) + "\n.x { color: red; }\n").write(
            to: css, atomically: true, encoding: .utf8)
        let after = Self.shell(copy)
        #expect(after.version != before.version)
        #expect(String(decoding: try #require(after.index).bytes, as: UTF8.self).contains("/app/\(after.version)/"))
    }

    /// Only the app's own kinds of files are kept; hidden files and others never become routes.
    @Test func onlyTheAppsOwnFilesAreRead() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("app-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: Self.source, to: copy)
        try Data("secret".utf8).write(to: copy.appendingPathComponent(".env"))
        try Data("x".utf8).write(to: copy.appendingPathComponent("notes.txt"))
        let shell = Self.shell(copy)
        #expect(shell.files[".env"] == nil && shell.files["notes.txt"] == nil && shell.files["README.md"] == nil)
        #expect(shell.files["js/main.js"] != nil)
    }

    @Test func trimmingDropsCommentsAndIndentationOnly() {
        let js = """
            // a comment line
              const url = "https://example.org"; // kept: not a whole line
                return a // b;

            """
        let trimmed = String(decoding: AppShell.Trim.text(Array(js.utf8), name: "x.js"), as: UTF8.self)
        #expect(trimmed == "const url = \"https://example.org\"; // kept: not a whole line\nreturn a // b;\n")
        let css = "/* a\n comment */\n  a { color: red; } /* x */\n"
        #expect(
            String(decoding: AppShell.Trim.text(Array(css.utf8), name: "x.css"), as: UTF8.self) == "a { color: red; }\n"
        )
        let svg = Array("  <svg>\n</svg>".utf8)
        #expect(AppShell.Trim.text(svg, name: "x.svg") == svg)
    }

    /// gzip that `gzip -d` reads back byte for byte.
    @Test func gzipRoundTrips() throws {
        let shell = Self.shell()
        let file = try #require(shell.files["js/main.js"])
        let gzipped = try #require(file.gzipped)
        #expect(gzipped.prefix(2) == [0x1f, 0x8b])
        #expect(gzipped.count < file.bytes.count / 2)
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("main-\(UUID().uuidString).js.gz")
        defer { try? FileManager.default.removeItem(at: input) }
        try Data(gzipped).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "gzip -dc '\(input.path)'"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(Array(out) == file.bytes)
    }

    /// A walker opens it in a hurry, maybe on a weak signal: the page, its style and every module,
    /// before the map.
    @Test func theFirstLoadIsSmall() {
        let (plain, gzipped) = Self.shell().firstLoad
        #expect(plain < 100_000, "first load: \(plain) bytes")
        #expect(gzipped < 40_000, "first load gzipped: \(gzipped) bytes")
    }

    static func matches(_ pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
