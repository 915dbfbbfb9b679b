import Foundation
import SafeWalkCore

// The watchdog's payloads written by ``JSONObjectWriter``, keys in sorted order; JSONObjectWriterTests
// compares each with ``SafeWalkJSON/encode(_:)``.

extension EscalationEvent {
    /// This event's payload, as ``SafeWalkJSON/encode(_:)`` would write it, much faster.
    public func jsonPayload() throws -> Data {
        var w = JSONObjectWriter()
        try w.number("at", at)
        if duress { w.bool("duress", true) }
        w.string("id", id)
        w.string("incident", incident)
        if let lastFix { try w.object("lastFix") { try lastFix.write(into: &$0) } } else { w.null("lastFix") }
        w.string("level", level.rawValue)
        if let note { w.string("note", note) }
        w.string("reason", reason.rawValue)
        w.integer("v", SchemaVersion.current)
        if let walk { try w.object("walk") { try walk.write(into: &$0) } } else { w.null("walk") }
        w.string("walker", walker.rawValue)
        return w.data()
    }
}

extension WatchStatus {
    /// This status's payload, as ``SafeWalkJSON/encode(_:)`` would write it, much faster.
    public func jsonPayload() throws -> Data {
        var w = JSONObjectWriter()
        if let level { w.string("level", level.rawValue) }
        if let location { w.string("location", location.rawValue) }
        if let nextCheckInAt { try w.number("nextCheckInAt", nextCheckInAt) }
        if let reason { w.string("reason", reason.rawValue) }
        try w.number("since", since)
        w.string("state", state.rawValue)
        w.integer("v", SchemaVersion.current)
        if let walk { try w.object("walk") { try walk.write(into: &$0) } }
        w.bool("watching", watching)
        return w.data()
    }
}

extension IncidentState {
    /// This state's payload, as ``SafeWalkJSON/encode(_:)`` would write it, much faster: one is
    /// written with every escalation.
    public func jsonPayload() throws -> Data {
        var w = JSONObjectWriter()
        if let closeReason { w.string("closeReason", closeReason.rawValue) }
        if let closedAt { try w.number("closedAt", closedAt) }
        if let closedBy { w.string("closedBy", closedBy.rawValue) }
        w.bool("duress", duress)
        w.string("incident", incident)
        w.string("level", level.rawValue)
        try w.number("openedAt", openedAt)
        w.string("reason", reason.rawValue)
        w.string("state", state.rawValue)
        w.integer("v", SchemaVersion.current)
        w.string("walker", walker.rawValue)
        return w.data()
    }
}

extension FixSummary {
    fileprivate func write(into w: inout JSONObjectWriter) throws {
        if let acc { try w.number("acc", acc) } else { w.null("acc") }
        try w.number("lat", lat)
        try w.number("lon", lon)
        try w.number("tst", tst)
    }
}

extension WalkPlan {
    fileprivate func write(into w: inout JSONObjectWriter) throws {
        w.string("destination", destination)
        try w.number("eta", eta)
        if let to {
            try w.object("to") {
                try $0.number("lat", to.lat)
                try $0.number("lon", to.lon)
            }
        }
    }
}
