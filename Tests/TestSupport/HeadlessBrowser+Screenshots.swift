import Foundation

/// Screenshots a person can look at. Every one goes to the temporary directory; with
/// `SAFEWALK_SCREENSHOTS=1` it also goes to the repository's `docs/images/`, where the README's
/// pictures live, so a run on purpose refreshes them and CI never rewrites the repository.
extension HeadlessBrowser {
    /// Whether this run refreshes the screenshots in `docs/images/`.
    public static var refreshesDocumentation: Bool {
        ProcessInfo.processInfo.environment["SAFEWALK_SCREENSHOTS"] == "1"
    }

    /// The repository's `docs/images/` (from this file's place in it).
    public static var documentationImages: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/images")
    }

    /// Takes a PNG of the viewport, saves it as `name`.png (see above) and returns it.
    @discardableResult
    public func saveScreenshot(_ name: String) async throws -> Data {
        let png = try await screenshot()
        try png.write(to: FileManager.default.temporaryDirectory.appendingPathComponent("\(name).png"))
        if Self.refreshesDocumentation {
            try FileManager.default.createDirectory(at: Self.documentationImages, withIntermediateDirectories: true)
            try png.write(to: Self.documentationImages.appendingPathComponent("\(name).png"))
        }
        return png
    }
}
