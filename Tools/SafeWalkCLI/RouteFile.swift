import Foundation
import SafeWalkCore

/// Route files for `simulate --route FILE`, two formats chosen by the first character:
///
/// - JSON: an array of points, `[{"lat": 30.2849, "lon": -97.7341}, ...]` (other fields ignored).
/// - CSV: one `lat,lon` per line; blank lines, `#` comments and a header line such as `lat,lon`
///   are skipped.
///
/// At least two distinct points; latitudes in -90...90, longitudes in -180...180.
public enum RouteFile {
    public static func parse(_ text: String) throws(CLIError) -> [Coordinate] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let points = trimmed.hasPrefix("[") ? try json(trimmed) : try csv(trimmed)
        for (index, point) in points.enumerated() {
            guard (-90...90).contains(point.lat), (-180...180).contains(point.lon) else {
                throw .invalidInput(
                    "route point \(index + 1) (\(point.lat), \(point.lon)) is not a valid latitude/longitude")
            }
        }
        guard Set(points.map { "\($0.lat),\($0.lon)" }).count >= 2 else {
            throw .invalidInput("a route needs at least two distinct points, found \(points.count)")
        }
        return points
    }

    public static func load(path: String) throws(CLIError) -> [Coordinate] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .invalidInput("cannot read route file \(path): \(error.localizedDescription)")
        }
        return try parse(text)
    }

    private static func json(_ text: String) throws(CLIError) -> [Coordinate] {
        struct Point: Decodable { var lat: Double; var lon: Double }
        do {
            return try JSONDecoder().decode([Point].self, from: Data(text.utf8)).map {
                Coordinate(lat: $0.lat, lon: $0.lon)
            }
        } catch {
            throw .invalidInput("route JSON must be an array of {\"lat\": ..., \"lon\": ...}: \(error)")
        }
    }

    private static func csv(_ text: String) throws(CLIError) -> [Coordinate] {
        var points: [Coordinate] = []
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count >= 2, let lat = Double(fields[0]), let lon = Double(fields[1]) else {
                if points.isEmpty, fields.first.map({ Double($0) == nil }) == true { continue }  // header
                throw .invalidInput("route line \(number + 1) is not 'lat,lon': \(line)")
            }
            points.append(Coordinate(lat: lat, lon: lon))
        }
        return points
    }
}
