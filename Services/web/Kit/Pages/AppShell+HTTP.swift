import HTTPTypes
import Hummingbird
import NIOCore

/// How the walker's app is served: `/` (the shell), `/app/{version}/{file}` (its style, modules and
/// icon, cached for good since the version changes with any file), `/app/{file}` (the same without
/// a version, revalidated), `/sw.js` (the service worker, scope `/`) and `/app.webmanifest`; and
/// the monitoring desk's page, `/ops`, whose files are under `/app/{version}/desk/`.
extension AppShell {
    /// A versioned file never changes: a year, and the browser need not even ask.
    static let foreverCache = "public, max-age=31536000, immutable"
    /// The worker, the manifest and unversioned files: kept, but asked about every time (304 when
    /// unchanged), so an upgrade reaches the phone on its next visit.
    static let revalidate = "no-cache"

    /// Only web's own files, and map pictures from the tile host; no inline script or style, no
    /// framing (a panic button inside someone else's page could be clicked for the walker).
    var contentSecurityPolicy: String {
        "default-src 'self'; img-src 'self' data:\(tileOrigin.map { " " + $0 } ?? ""); connect-src 'self'; "
            + "script-src 'self'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    }

    /// Whether ``RejectionMiddleware`` keeps the caching an app file was given (everything else
    /// web answers is `no-store`).
    static func isCacheable(_ response: Response, at path: String) -> Bool {
        guard path.hasPrefix("/app/") || path == "/sw.js" || path == "/app.webmanifest" else { return false }
        guard response.status == .ok || response.status == .notModified else { return false }
        return [foreverCache, revalidate].contains(response.headers[.cacheControl] ?? "")
    }

    /// `/`: the shell. Never cached by HTTP (the service worker keeps its own copy for offline).
    func page(_ request: Request) -> Response {
        shellPage(index, request)
    }

    /// `/ops`: the monitoring desk, with the same policy as the walker's shell and never cached.
    func deskPage(_ request: Request) -> Response {
        shellPage(desk, request)
    }

    func shellPage(_ file: File?, _ request: Request) -> Response {
        guard let file else {
            return HTMLResponse.make(
                PageHTML.message("SafeWalk is not available", "The app’s files are missing on this server."),
                status: .serviceUnavailable)
        }
        var response = respond(file, request, cache: nil)
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[HTTPField.Name("X-Robots-Tag")!] = "noindex, nofollow"
        return response
    }

    /// `/app/{version}/{name}` or `/app/{name}`.
    func asset(_ request: Request, path: [Substring]) throws -> Response {
        if path.count > 1, path[0] == version, let file = files[path.dropFirst().joined(separator: "/")] {
            return respond(file, request, cache: Self.foreverCache)
        }
        // An unversioned name, or a page from before an upgrade asking for its version: today's
        // file, but not for good.
        let name = (path.count > 1 && path[0].count == version.count ? path.dropFirst() : path[...]).joined(
            separator: "/")
        guard let file = files[name] else { throw APIError.notFound }
        return respond(file, request, cache: Self.revalidate)
    }

    func serviceWorker(_ request: Request) throws -> Response {
        guard let worker else { throw APIError.notFound }
        var response = respond(worker, request, cache: Self.revalidate)
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        return response
    }

    func webManifest(_ request: Request) throws -> Response {
        guard let manifest else { throw APIError.notFound }
        return respond(manifest, request, cache: Self.revalidate)
    }

    /// The file, gzipped when the client takes it; 304 for a revalidation of today's version.
    func respond(_ file: File, _ request: Request, cache: String?) -> Response {
        let tag = "\"\(version)\""
        if cache != nil, request.headers[.ifNoneMatch]?.contains(tag) == true {
            var response = Response(status: .notModified)
            response.headers[.eTag] = tag
            response.headers[.cacheControl] = cache
            return response
        }
        let gzip = file.gzipped != nil && request.headers[.acceptEncoding]?.contains("gzip") == true
        var response = Response(
            status: .ok, headers: [.contentType: file.type],
            body: .init(byteBuffer: ByteBuffer(bytes: gzip ? file.gzipped! : file.bytes)))
        if gzip { response.headers[.contentEncoding] = "gzip" }
        response.headers[.vary] = "Accept-Encoding"
        response.headers[.xContentTypeOptions] = "nosniff"
        if let cache {
            response.headers[.cacheControl] = cache
            response.headers[.eTag] = tag
        }
        return response
    }

    /// The five routes, beside `/static/**` (not part of the API: docs/services/web.md).
    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get("/") { request, _ in page(request) }
        router.get("/ops") { request, _ in deskPage(request) }
        router.get("/app/**") { request, context in
            try asset(request, path: context.parameters.getCatchAll())
        }
        router.get("/sw.js") { request, _ in try serviceWorker(request) }
        router.get("/app.webmanifest") { request, _ in try webManifest(request) }
    }
}
