import Hummingbird
import Logging
import Metrics
import NIOCore

/// Turns every error into a JSON refusal (404 for an unknown route included) and counts it in
/// `safewalk_http_rejections_total{service="web",reason}`. An error we did not expect is logged
/// with its detail and answered 500 `internal`: a client never sees a stack trace or an error's
/// description. Every answer is `no-store` except a file under `/static/` (``StaticFiles``) and the
/// walker's app's files (``AppShell``).
struct RejectionMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            var response = try await next(request, context)
            let path = request.uri.path
            if StaticFiles.isCacheable(response, at: path) || AppShell.isCacheable(response, at: path) {
                response.headers[.xContentTypeOptions] = "nosniff"
            } else {
                JSONResponse.secure(&response)
            }
            return response
        } catch let error as APIError {
            return reject(error, request)
        } catch let error as HTTPError {
            return reject(Self.apiError(for: error.status), request)
        } catch is NIOTooManyBytesError {
            return reject(.tooLarge(limit: JSONBody.defaultLimit), request)
        } catch {
            logger.error(
                "request failed",
                metadata: ["method": "\(request.method)", "path": "\(request.uri.path)", "error": "\(error)"])
            return reject(.internalError, request)
        }
    }

    private func reject(_ error: APIError, _ request: Request) -> Response {
        Counter(
            label: "safewalk_http_rejections_total", dimensions: [("service", "web"), ("reason", error.metricReason)]
        )
        .increment()
        logger.debug(
            "request refused",
            metadata: ["method": "\(request.method)", "path": "\(request.uri.path)", "reason": "\(error.metricReason)"])
        return JSONResponse.error(error)
    }

    /// What Hummingbird itself throws (the router's 404, mostly).
    static func apiError(for status: HTTPResponse.Status) -> APIError {
        switch status.code {
        case 404, 405: .notFound
        case 413: .tooLarge(limit: JSONBody.defaultLimit)
        case 415: .unsupportedMediaType
        case 400..<500: .malformedJSON
        default: .internalError
        }
    }
}
