import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import SafeWalkWebKit

/// The walker's app over real loopback HTTP: `/`, `/app/…`, `/sw.js` and `/app.webmanifest` with
/// their types, the Content-Security-Policy, and caching that never serves yesterday's app.
@Suite(.holdsResources) struct AppShellHTTPTests {
    @Test func theShellIsServedWithItsPolicyAndNeverCached() async throws {
        let web = try WebFixture()
        try await web.live { client in
            let page = try await client.execute(uri: "/", method: .get)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.cacheControl] == "no-store")
            #expect(page.headers[.xContentTypeOptions] == "nosniff")
            #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            let policy = try #require(page.headers[.contentSecurityPolicy])
            for part in [
                "default-src 'self'", "connect-src 'self'", "script-src 'self'", "style-src 'self'",
                "frame-ancestors 'none'",
            ] {
                #expect(policy.contains(part), "\(part)")
            }
            #expect(!policy.contains("unsafe"))
            if StaticFiles(leafletDirectory: WebSettings().live.leafletDirectory, logger: .init(label: "t")).hasLeaflet
            {
                #expect(policy.contains("img-src 'self' data: https://tile.openstreetmap.org"))
            }
            let html = String(buffer: page.body)
            #expect(html.contains(#"id="btn-hold""#) && html.contains(#"id="btn-need-help""#))
        }
    }

    /// The monitoring desk's page: the same policy and headers as `/`, never cached, its files under
    /// the version; the service worker knows nothing of it.
    @Test func theDeskIsServedAtOpsWithThePolicy() async throws {
        let web = try WebFixture()
        try await web.live { client in
            let root = try await client.execute(uri: "/", method: .get)
            let page = try await client.execute(uri: "/ops", method: .get)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.cacheControl] == "no-store")
            #expect(page.headers[.xContentTypeOptions] == "nosniff")
            #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            #expect(page.headers[HTTPField.Name("X-Robots-Tag")!] == "noindex, nofollow")
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy == root.headers[.contentSecurityPolicy])
            #expect(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'"))
            #expect(!policy.contains("unsafe"))
            let html = String(buffer: page.body)
            #expect(html.contains(#"id="desk-signin""#) && !html.contains("{{"))

            let named = AppShellTests.matches(#"(?:src|href)="(/[^"]*)""#, in: html)
            #expect(
                named.contains { $0.hasSuffix("/desk/js/main.js") } && named.contains { $0.hasSuffix("/desk/desk.css") }
            )
            for path in named {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .ok, "\(path)")
                #expect(response.headers[.contentType] == Self.type(of: path), "\(path)")
                #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable", "\(path)")
            }
            let main = try #require(named.first { $0.hasSuffix("/desk/js/main.js") })
            let board = try await client.execute(
                uri: main.replacingOccurrences(of: "main.js", with: "board.js"), method: .get)
            #expect(board.status == .ok)

            let worker = String(buffer: try await client.execute(uri: "/sw.js", method: .get).body)
            let list = try #require(AppShellTests.matches(#"const SHELL = (\[[^\]]*\]);"#, in: worker).first)
            #expect(!list.contains("/desk/") && !list.contains("ops"), "not in the offline list")
            for path in ["/app/ops.html", "/ops.html"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .notFound, "\(path)")
            }
        }
    }

    @Test func everyFileTheShellNamesIsServedWithItsTypeAndCachedForGood() async throws {
        let web = try WebFixture()
        try await web.live { client in
            let html = String(buffer: try await client.execute(uri: "/", method: .get).body)
            let named = AppShellTests.matches(#"(?:src|href)="(/[^"]*)""#, in: html)
            #expect(named.contains { $0.hasSuffix("/js/main.js") } && named.contains { $0.hasSuffix("/app.css") })
            for path in named where path.hasPrefix("/app/") {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .ok, "\(path)")
                #expect(response.headers[.contentType] == Self.type(of: path), "\(path)")
                #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable", "\(path)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(path)")
            }
            // Modules import each other by relative path, so they are under the version too.
            let module = try await client.execute(
                uri: try #require(named.first { $0.hasSuffix("main.js") }), method: .get)
            #expect(String(buffer: module.body).contains(#"from "./api.js""#))
            let api = try #require(named.first { $0.hasSuffix("main.js") }).replacingOccurrences(
                of: "main.js", with: "api.js")
            let imported = try await client.execute(uri: api, method: .get)
            #expect(imported.status == .ok)
            #expect(imported.headers[.contentType] == "text/javascript; charset=utf-8")
        }
    }

    @Test func gzipWhenTheClientTakesIt() async throws {
        let web = try WebFixture()
        try await web.live { client in
            let plain = try await client.execute(uri: "/", method: .get)
            #expect(plain.headers[.contentEncoding] == nil)
            let gzipped = try await client.execute(uri: "/", method: .get, headers: [.acceptEncoding: "gzip, br"])
            #expect(gzipped.headers[.contentEncoding] == "gzip")
            #expect(gzipped.headers[.vary] == "Accept-Encoding")
            #expect(gzipped.body.readableBytes < plain.body.readableBytes / 2)
            #expect(Array(gzipped.body.readableBytesView.prefix(2)) == [0x1f, 0x8b])
        }
    }

    @Test func theWorkerAndTheManifestAreRevalidated() async throws {
        let web = try WebFixture()
        try await web.live { client in
            let worker = try await client.execute(uri: "/sw.js", method: .get)
            #expect(worker.status == .ok)
            #expect(worker.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(worker.headers[.cacheControl] == "no-cache")
            #expect(worker.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            let text = String(buffer: worker.body)
            #expect(text.contains("showNotification") && !text.contains("{{"))
            let tag = try #require(worker.headers[.eTag])
            let again = try await client.execute(uri: "/sw.js", method: .get, headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)

            let manifest = try await client.execute(uri: "/app.webmanifest", method: .get)
            #expect(manifest.status == .ok)
            #expect(manifest.headers[.contentType] == "application/manifest+json")
            #expect(manifest.headers[.cacheControl] == "no-cache")
            let json = try JSONSerialization.jsonObject(with: Data(buffer: manifest.body)) as? [String: Any]
            #expect(json?["scope"] as? String == "/")

            // Without a version (a hand-typed URL): today's file, revalidated, never "immutable".
            let bare = try await client.execute(uri: "/app/app.css", method: .get)
            #expect(bare.status == .ok)
            #expect(bare.headers[.contentType] == "text/css; charset=utf-8")
            #expect(bare.headers[.cacheControl] == "no-cache")
        }
    }

    @Test func nothingElseIsReachable() async throws {
        let web = try WebFixture()
        try await web.live { client in
            for path in [
                "/app/nothing.js", "/app/README.md", "/app/index.html", "/app/../Package.swift",
                "/app/%2e%2e/%2e%2e/Package.swift", "/app/", "/index.html",
            ] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.headers[.cacheControl] == "no-store", "\(path)")
            }
            // The API still answers as before beside the app.
            let session = try await client.execute(uri: "/v1/sessions", method: .delete)
            #expect(session.status == .unauthorized)
        }
    }

    static func type(of path: String) -> String {
        if path.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        if path.hasSuffix(".css") { return "text/css; charset=utf-8" }
        if path.hasSuffix(".svg") { return "image/svg+xml" }
        return "?"
    }
}
