import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SafeWalkWebKit
import TestSupport
import Testing

/// docs/openapi.json and the router agree: every documented operation is served, and every
/// served route is documented.
@Suite(.holdsResources) struct RouteTableTests {
    static let openAPI = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/openapi.json")

    struct Operation: Hashable, CustomStringConvertible {
        var method: String
        var path: String
        var description: String { "\(method) \(path)" }
    }

    @Test func theOpenAPIDocumentListsExactlyTheRoutes() throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.openAPI)) as? [String: Any])
        #expect((document["openapi"] as? String)?.hasPrefix("3.1") == true)
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]
        let documented = Set(
            paths.flatMap { path, item in
                item.keys.filter(methods.contains).map { Operation(method: $0.uppercased(), path: path) }
            })
        let served = Set(WebRoute.allCases.map { Operation(method: $0.method.rawValue, path: $0.path) })
        #expect(documented == served)
    }

    /// The accounts routes; the live pages' and the gateway's are served in LivePageHTTPTests and
    /// AcknowledgementHTTPTests, which run them with a broker.
    @Test func everyRouteInTheTableIsServed() async throws {
        let web = try WebFixture()
        try await web.live { client in
            for route in WebRoute.allCases where route.path.hasPrefix("/v1/accounts") || route.path == "/v1/sessions" {
                let uri = route.path.replacingOccurrences(of: "{user}", with: "alice")
                let response = try await client.execute(uri: uri, method: route.method)
                #expect(response.status != .notFound, "\(route)")
                #expect(response.refusal != nil, "\(route)")
            }
        }
    }
}
