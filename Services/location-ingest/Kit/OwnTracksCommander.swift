import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import Synchronization

/// Faster fixes during an incident for walkers whose tracker is the OwnTracks app: while the
/// walker's incident is open (as ``DeviceDisclosure/owntracksMoveMode(for:)`` sees it, so never
/// after a duress PIN) each of their devices is put in move mode and asked for a location; when it
/// ends each is given back the mode it had. The decisions are ``OwnTracksModeRule``'s; this is the
/// IO around them: the devices in memory, their rows in SQLite, the commands on the broker.
///
/// Commands go out before they are recorded as said: a crash between the two sends them again
/// after the restart (harmless: the same mode, one more location), never loses one.
public final class OwnTracksCommander: Sendable {
    let bus: any MessageBus
    let store: TrackStore
    let logger: Logger
    private let state: Mutex<State>

    struct State {
        var devices: [OwnTracksDeviceKey: OwnTracksDevice]
        var byWalker: [WalkerID: Set<DeviceName>]
        /// The latest incident state of each walker, for a device first seen during it.
        var incidents: [WalkerID: IncidentState] = [:]
    }

    /// One device's instructions, and what it was before them (put back if they cannot be sent).
    struct Plan {
        var key: OwnTracksDeviceKey
        var before: OwnTracksDevice?
        var after: OwnTracksDevice
        var instructions: [OwnTracksInstruction]
    }

    public init(
        bus: any MessageBus, store: TrackStore, logger: Logger, devices: [OwnTracksDeviceKey: OwnTracksDevice] = [:]
    ) {
        self.bus = bus
        self.store = store
        self.logger = logger
        self.state = Mutex(
            State(
                devices: devices,
                byWalker: Dictionary(grouping: devices.keys, by: \.walker).mapValues { Set($0.map(\.device)) }))
    }

    /// The device as known now (tests, tools).
    public func device(_ key: OwnTracksDeviceKey) -> OwnTracksDevice? {
        state.withLock { $0.devices[key] }
    }

    /// Every message of a batch (called for each batch ingest decides): each OwnTracks device's
    /// last `m`. Costs a scan of each OwnTracks payload and, per device, two dictionary lookups
    /// under a lock; SQLite is written only when a device is new or its usual mode changed.
    public func observe(_ batch: [MQTTMessage]) async {
        var sightings: [OwnTracksDeviceKey: Int?] = [:]
        var routes: [String: OwnTracksDeviceKey?] = [:]
        for message in batch where message.topic.hasPrefix(Self.owntracksLevel) && !message.payload.isEmpty {
            let key: OwnTracksDeviceKey?
            if let known = routes[message.topic] {
                key = known
            } else {
                key = Self.device(of: message.topic)
                routes[message.topic] = key
            }
            guard let key else { continue }
            if let mode = MonitoringModeScanner.mode(in: message.payload) {
                sightings[key] = .some(mode)
            } else if sightings.index(forKey: key) == nil {
                sightings[key] = .some(nil)
            }
        }
        guard !sightings.isEmpty else { return }
        let (changed, plans) = state.withLock { state in
            var changed: Set<OwnTracksDeviceKey> = []
            var plans: [Plan] = []
            for (key, mode) in sightings {
                let known = state.devices[key]
                var (device, didChange) = OwnTracksModeRule.sighting(mode: mode, known: known)
                guard didChange else { continue }
                if known == nil {
                    state.byWalker[key.walker, default: []].insert(key.device)
                    // A device first seen while its walker's incident is open is told at once.
                    let (told, instructions) = OwnTracksModeRule.incident(state.incidents[key.walker], device: device)
                    if !instructions.isEmpty {
                        plans.append(Plan(key: key, before: device, after: told, instructions: instructions))
                        device = told
                    }
                }
                state.devices[key] = device
                changed.insert(key)
            }
            return (changed, plans)
        }
        await send(plans)
        await persist(changed)
    }

    /// The walker's incident state (nil: cleared): what each of their devices must be told, once.
    public func follow(_ walker: WalkerID, incident: IncidentState?) async {
        let plans = state.withLock { state in
            state.incidents[walker] = incident
            var plans: [Plan] = []
            for name in state.byWalker[walker] ?? [] {
                let key = OwnTracksDeviceKey(walker: walker, device: name)
                guard let device = state.devices[key] else { continue }
                let (after, instructions) = OwnTracksModeRule.incident(incident, device: device)
                guard !instructions.isEmpty else { continue }
                state.devices[key] = after
                plans.append(Plan(key: key, before: device, after: after, instructions: instructions))
            }
            return plans
        }
        await send(plans)
        await persist(Set(plans.map(\.key)))
    }

    /// Forgets `walker`'s devices and incident (an erasure; ``TrackStore/erase(_:)`` deletes the rows).
    public func forget(_ walker: WalkerID) {
        state.withLock { state in
            for name in state.byWalker[walker] ?? [] {
                state.devices[OwnTracksDeviceKey(walker: walker, device: name)] = nil
            }
            state.byWalker[walker] = nil
            state.incidents[walker] = nil
        }
    }

    /// Publishes each plan's commands (QoS 1, not retained: a command is for now, and a device
    /// that is away gets it from its persistent session). A plan that cannot be sent is undone,
    /// so the incident's next state, or a restart, tries again.
    private func send(_ plans: [Plan]) async {
        for plan in plans {
            let metadata: Logger.Metadata = [
                "walker": "\(plan.key.walker)", "device": "\(plan.key.device)",
                "commands": "\(plan.instructions)",
            ]
            do {
                let topic = OwnTracksCommand.topic(user: plan.key.walker, device: plan.key.device)
                for instruction in plan.instructions {
                    try await bus.publish(
                        topic, payload: try OwnTracksCommand.payload(instruction), qos: .atLeastOnce, retain: false)
                }
                logger.info("OwnTracks device commanded", metadata: metadata)
            } catch {
                state.withLock { state in
                    if state.devices[plan.key] == plan.after { state.devices[plan.key] = plan.before }
                }
                logger.warning("OwnTracks command not sent", metadata: metadata.merging(["error": "\(error)"]) { $1 })
            }
        }
    }

    private func persist(_ keys: Set<OwnTracksDeviceKey>) async {
        guard !keys.isEmpty else { return }
        do {
            try await store.saveDevices(keys) { key in self.state.withLock { $0.devices[key] } }
        } catch {
            // Kept in memory and written with the device's next change; a restart before then
            // forgets it (at worst a command is sent again, or a device waits for its next message).
            logger.error("OwnTracks devices not stored", metadata: ["devices": "\(keys.count)", "error": "\(error)"])
        }
    }

    private static let owntracksLevel = Topic.Kind.owntracks.path + "/"

    /// `owntracks/{user}/{device}` → the device; nil for anything else.
    private static func device(of topic: String) -> OwnTracksDeviceKey? {
        guard let parsed = Topic.parse(topic), case .owntracks(let user, let device) = parsed.subject else {
            return nil
        }
        return OwnTracksDeviceKey(walker: user, device: device)
    }
}

extension OwnTracksCommander {
    /// OwnTracks' `m` in `payload`, as ``observe(_:)`` reads it (for tests and tools).
    public static func monitoringMode(in payload: Data) -> Int? { MonitoringModeScanner.mode(in: payload) }
}
