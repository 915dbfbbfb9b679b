import Foundation
import SafeWalkCore
import Testing

@testable import WatchdogKit

/// The hand-written payloads must read exactly like the shared encoder's.
@Suite struct JSONObjectWriterTests {
    static let strings = [
        "Library", "", "Café \"Zur Post\" \\ back/slash", "tab\tnew\nline\r\u{8}\u{C}", "\u{0}\u{1}\u{1F}\u{7F}",
        "🚨 emoji 👩‍👩‍👧 and 中文", String(repeating: "x", count: 300),
    ]
    static let numbers: [Double] = [
        0, -0.0, 1_700_000_000, 1_700_000_000.25, 30.2849, -97.7341, 5, 0.1, 1e-7,
        123_456_789.123_456, 9_007_199_254_740_991, 9_007_199_254_740_993, 1e300, -1e-300,
    ]

    func sameAsTheSharedEncoder<T: Encodable & Decodable & Equatable>(_ value: T, _ fast: Data) throws {
        let slow = try SafeWalkJSON.encode(value)
        #expect(try SafeWalkJSON.decode(T.self, from: fast) == value)
        let fastObject = try #require(try JSONSerialization.jsonObject(with: fast) as? NSDictionary)
        let slowObject = try #require(try JSONSerialization.jsonObject(with: slow) as? NSDictionary)
        #expect(
            fastObject == slowObject,
            "\(String(decoding: fast, as: UTF8.self)) vs \(String(decoding: slow, as: UTF8.self))")
    }

    @Test func escalationsReadTheSame() throws {
        var checked = 0
        for reason in EscalationReason.allCases {
            for level in EscalationLevel.allCases {
                for (index, destination) in Self.strings.enumerated() {
                    let number = Self.numbers[index % Self.numbers.count]
                    for lastFix in [
                        nil, FixSummary(lat: 30.28, lon: -97.73, acc: nil, tst: number),
                        FixSummary(lat: -90, lon: 180, acc: 4.5, tst: 1_700_000_000),
                    ] {
                        for walk in [nil, WalkPlan(destination: destination, eta: number)] {
                            let event = EscalationEvent(
                                id: UUID().uuidString.lowercased(), walker: try WalkerID("alice-2"),
                                reason: reason, level: level, at: number, lastFix: lastFix, walk: walk)
                            try sameAsTheSharedEncoder(event, try event.jsonPayload())
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked > 100)
    }

    @Test func statusesReadTheSame() throws {
        for state in WatchState.allCases {
            for number in Self.numbers {
                for reason in [nil] + EscalationReason.allCases.map(Optional.some) {
                    for location in [nil] + LocationState.allCases.map(Optional.some) {
                        let status = WatchStatus(
                            state: state, watching: reason == nil, since: number,
                            nextCheckInAt: reason == nil ? number + 60 : nil, reason: reason,
                            level: reason?.defaultLevel,
                            walk: reason == nil ? nil : WalkPlan(destination: Self.strings[2], eta: number),
                            location: location)
                        try sameAsTheSharedEncoder(status, try status.jsonPayload())
                    }
                }
            }
        }
    }

    @Test func incidentStatesReadTheSame() throws {
        for (index, id) in Self.strings.enumerated() {
            let number = Self.numbers[index % Self.numbers.count]
            for reason in EscalationReason.allCases {
                let open = IncidentState(
                    incident: id, walker: try WalkerID("alice-2"), state: .open, reason: reason,
                    level: reason.defaultLevel, duress: index % 2 == 0, openedAt: number)
                try sameAsTheSharedEncoder(open, try open.jsonPayload())
                for closer in IncidentState.Closer.allCases {
                    let closed = open.closed(at: number + 1, by: closer)
                    try sameAsTheSharedEncoder(closed, try closed.jsonPayload())
                }
                for reason in DeskCloseReason.allCases {
                    let closed = open.closed(at: number + 1, by: .desk, reason: reason)
                    try sameAsTheSharedEncoder(closed, try closed.jsonPayload())
                }
            }
        }
    }

    @Test func typicalPayloadsAreByteForByteTheSharedEncodersOutput() throws {
        let event = EscalationEvent(
            id: "1f0c", walker: try WalkerID("alice"), reason: .walkOverdue, level: .amber,
            at: 1_700_000_120, lastFix: FixSummary(lat: 30.2849, lon: -97.7341, acc: 5, tst: 1_700_000_100),
            walk: WalkPlan(destination: "Main Library / east door", eta: 1_700_000_100), incident: "0e9b")
        #expect(try event.jsonPayload() == SafeWalkJSON.encode(event))
        let status = WatchStatus(
            state: .checking, watching: true, since: 1_700_000_000.5, nextCheckInAt: 1_700_000_060, location: .paused)
        #expect(try status.jsonPayload() == SafeWalkJSON.encode(status))
        let incident = IncidentState(
            incident: "1f0c", walker: try WalkerID("alice"), state: .open, reason: .walkOverdue, level: .amber,
            duress: false, openedAt: 1_700_000_120)
        #expect(try incident.jsonPayload() == SafeWalkJSON.encode(incident))
        let closed = incident.closed(at: 1_700_000_200.5, by: .arrived)
        #expect(try closed.jsonPayload() == SafeWalkJSON.encode(closed))
        let byDesk = incident.closed(at: 1_700_000_300, by: .desk, reason: .handedToPolice)
        #expect(try byDesk.jsonPayload() == SafeWalkJSON.encode(byDesk))
    }

    @Test func aNonFiniteNumberIsAnErrorNotNaNOnTheWire() {
        let status = WatchStatus(state: .safe, watching: false, since: .nan)
        #expect(throws: JSONObjectWriter.NonFiniteNumber.self) { try status.jsonPayload() }
        let event = EscalationEvent(
            id: "x", walker: try! WalkerID("bob"), reason: .panic, level: .red, at: .infinity,
            lastFix: nil, walk: nil)
        #expect(throws: JSONObjectWriter.NonFiniteNumber.self) { try event.jsonPayload() }
    }
}
