import Foundation
import SafeWalkCore
import SafeWalkMQTT

/// Publishes the plan's alert on `{p}/{w}/alert` (QoS 1: sent means the broker acknowledged).
public struct DeviceChannel: NotificationChannel {
    public let name = "device"
    let bus: any MessageBus
    let prefix: String

    public init(bus: any MessageBus, prefix: String) {
        self.bus = bus
        self.prefix = prefix
    }

    public func targets(for plan: DeliveryPlan) -> [DeliveryTarget] {
        // After a duress PIN the phone must look exactly as after a cancel: no alert at all.
        plan.deviceMayKnow ? [DeliveryTarget(key: "device", display: plan.walker.rawValue)] : []
    }

    public func send(_ target: DeliveryTarget, plan: DeliveryPlan, event: EscalationEvent) async throws(ChannelFailure)
    {
        let payload: Data
        do {
            payload = try SafeWalkJSON.encode(plan.alert)
        } catch {
            throw .permanent("alert could not be encoded")
        }
        do {
            try await bus.publish(Topic.alert(plan.walker).name(prefix: prefix), payload: payload, qos: .atLeastOnce)
        } catch {
            throw .transient("broker: \(error)")
        }
    }
}
