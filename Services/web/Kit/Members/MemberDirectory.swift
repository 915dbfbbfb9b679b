import Foundation
import SafeWalkCore
import SafeWalkMQTT

/// Where `web` says who has an account: `_members/{w}`, one retained ``Member`` per account
/// (docs/CONTRACT.md). The circle owner reads them to know who can be followed, so a follow of
/// someone without an account is "unknown user". In the service it is the broker
/// (``BrokerMembers``); tests may record instead.
public protocol MemberDirectory: Sendable {
    /// Retains the account's record. Publishing the same record again changes nothing.
    func publish(_ member: Member) async throws
    /// Clears it (an empty retained message): the user can no longer be followed.
    func clear(_ user: WalkerID) async throws
}

/// ``MemberDirectory`` on the broker: retained, QoS 1 (the call returns once the broker has it).
public struct BrokerMembers: MemberDirectory {
    let bus: any MessageBus
    let prefix: String

    public init(bus: any MessageBus, prefix: String) {
        self.bus = bus
        self.prefix = prefix
    }

    public func publish(_ member: Member) async throws {
        try await bus.publish(
            Topic.member(member.user).name(prefix: prefix), payload: try SafeWalkJSON.encode(member),
            qos: .atLeastOnce, retain: true)
    }

    public func clear(_ user: WalkerID) async throws {
        try await bus.publish(Topic.member(user).name(prefix: prefix), payload: Data(), qos: .atLeastOnce, retain: true)
    }
}
