import Testing

/// Runs each test of a suite (or a single test) only once it has a place in
/// ``ConcurrencyGate/resources``, so the test process stays under 1024 open descriptors.
public struct ResourceGateTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // The suite itself holds nothing; each of its test cases takes its own place.
        guard testCase != nil else { return try await function() }
        _ = await ConcurrencyGate.resources.enter()
        do {
            try await function()
        } catch {
            await ConcurrencyGate.resources.leave()
            throw error
        }
        await ConcurrencyGate.resources.leave()
    }
}

extension Trait where Self == ResourceGateTrait {
    /// The suite's tests hold a broker, an HTTP server or an SQLite file: see ``ConcurrencyGate/resources``.
    public static var holdsResources: Self { ResourceGateTrait() }
}
