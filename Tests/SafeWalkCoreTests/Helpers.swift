import Foundation
import SafeWalkCore
import Testing

/// UTF-8 bytes of a JSON literal.
func json(_ text: String) -> Data { Data(text.utf8) }

/// A valid walker id for tests (a literal known to pass validation).
func walker(_ raw: String = "alice") -> WalkerID {
    WalkerID(validating: raw)!
}

/// Encodes with the shared encoder and returns the top-level JSON object.
func jsonObject<T: Encodable>(_ value: T) throws -> [String: Any] {
    let data = try SafeWalkJSON.encode(value)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// Encodes with the shared encoder and returns the JSON text.
func jsonText<T: Encodable>(_ value: T) throws -> String {
    String(decoding: try SafeWalkJSON.encode(value), as: UTF8.self)
}

/// Decodes through the shared entry point, returning the classified error or nil on success.
func decodeError<T: Decodable>(_ type: T.Type, _ data: Data) -> PayloadError? {
    do {
        _ = try SafeWalkJSON.decode(type, from: data)
        return nil
    } catch {
        return error
    }
}

/// Returns the fix rejection for a payload, or nil if it was accepted.
func fixRejection(_ text: String, now: EpochSeconds = 1_700_000_000, policy: FixPolicy = FixPolicy()) -> FixRejection? {
    do {
        _ = try FixDecoder.decode(json(text), now: now, policy: policy)
        return nil
    } catch {
        return error
    }
}

/// A point `meters` due north of `origin` (exact on the sphere: distance along a meridian).
func north(of origin: Coordinate, meters: Double) -> Coordinate {
    Coordinate(lat: origin.lat + meters / Geo.earthRadiusMeters * 180 / .pi, lon: origin.lon)
}

let austin = Coordinate(lat: 30.2849, lon: -97.7341)
let t0: EpochSeconds = 1_700_000_000

func fix(at c: Coordinate, tst: EpochSeconds = t0, acc: Double? = 0) -> LocationFix {
    LocationFix(lat: c.lat, lon: c.lon, tst: tst, acc: acc)
}
