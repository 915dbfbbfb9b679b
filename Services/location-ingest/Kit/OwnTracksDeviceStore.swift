import Foundation
import GRDB
import SafeWalkCore

/// One OwnTracks device: `owntracks/{walker}/{device}`.
public struct OwnTracksDeviceKey: Hashable, Sendable {
    public var walker: WalkerID
    public var device: DeviceName

    public init(walker: WalkerID, device: DeviceName) {
        self.walker = walker
        self.device = device
    }
}

/// The `owntracks_device` table of ``TrackStore`` (migration `v4-owntracks-device`).
extension TrackStore {
    /// Writes the devices `keys` as `current` says they are when the write runs. Writes are
    /// serialised by SQLite, and each reads the state inside its own transaction, so the last write
    /// always holds the newest state, whatever order two callers reach the database in. A device
    /// that `current` no longer knows (erased meanwhile) is not written.
    public func saveDevices(
        _ keys: Set<OwnTracksDeviceKey>, current: @escaping @Sendable (OwnTracksDeviceKey) -> OwnTracksDevice?
    ) async throws {
        guard !keys.isEmpty else { return }
        try await pool.write { db in
            let upsert = try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO owntracks_device
                        (walker, device, usualMode, commandedIncident, commandedMove, restorePending)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """)
            for key in keys {
                guard let device = current(key) else { continue }
                let (incident, move): (String?, Bool?) =
                    switch device.commanded {
                    case .move(let id): (id, true)
                    case .restored(let id): (id, false)
                    case nil: (nil, nil)
                    }
                try upsert.execute(arguments: [
                    key.walker.rawValue, key.device.rawValue, device.usualMode, incident, move, device.restorePending,
                ])
            }
        }
    }

    /// Every OwnTracks device, as persisted; rows whose ids are no longer valid are skipped.
    /// Synchronous, like ``loadTracks()``: read once at start-up.
    public func loadDevices() throws -> [OwnTracksDeviceKey: OwnTracksDevice] {
        try pool.read { db in
            var result: [OwnTracksDeviceKey: OwnTracksDevice] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM owntracks_device") {
                guard let walker = WalkerID(validating: row["walker"]),
                    let device = DeviceName(validating: row["device"])
                else { continue }
                let incident: String? = row["commandedIncident"]
                let move: Bool? = row["commandedMove"]
                let commanded: OwnTracksDevice.Commanded? =
                    switch (incident, move) {
                    case (let id?, true?): .move(incident: id)
                    case (let id?, false?): .restored(incident: id)
                    default: nil
                    }
                result[OwnTracksDeviceKey(walker: walker, device: device)] = OwnTracksDevice(
                    usualMode: row["usualMode"], commanded: commanded, restorePending: row["restorePending"])
            }
            return result
        }
    }
}
