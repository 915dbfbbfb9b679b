import SafeWalkCore
import Testing

@testable import WatchdogKit

/// The engine's dense slot table against a plain dictionary given the same operations: what is
/// stored, replaced and removed (the last slot moving into a hole) must read back the same.
@Suite struct WatchSlotsTests {
    static func walker(_ n: Int) -> WalkerID { WalkerID(validating: "w\(n)")! }

    @Test func setReplaceRemoveAndModifyReadBackLikeADictionary() {
        var slots = WatchSlots<Int>()
        var model: [WalkerID: Int] = [:]
        // A fixed pseudo-random walk over 50 walkers: sets, replacements, removals (of present
        // and absent walkers, first, middle and last slots alike) and in-place changes.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for step in 0..<5_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let walker = Self.walker(Int(seed >> 33) % 50)
            switch (seed >> 20) % 4 {
            case 0, 1:
                #expect(slots.updateValue(step, forKey: walker) == model.updateValue(step, forKey: walker))
            case 2:
                slots[walker] = nil
                model[walker] = nil
            default:
                let changed = slots.modify(walker) { value -> Int in
                    value += 1
                    return value
                }
                if model[walker] != nil { model[walker]! += 1 }
                #expect(changed == model[walker])
            }
            #expect(slots.count == model.count)
            #expect(slots.contains(walker) == (model[walker] != nil))
        }
        for n in 0..<50 { #expect(slots[Self.walker(n)] == model[Self.walker(n)]) }
        let pairs = slots.compactMap { walker, value in (walker, value) }
        #expect(Dictionary(uniqueKeysWithValues: pairs) == model)
    }

    @Test func removingEveryWalkerLeavesItEmptyAndReusable() {
        var slots = WatchSlots<String>()
        for n in 0..<10 { slots[Self.walker(n)] = "v\(n)" }
        for n in [9, 0, 5, 1, 8, 2, 7, 3, 6, 4] {
            slots.removeValue(forKey: Self.walker(n))
            #expect(slots[Self.walker(n)] == nil)
        }
        #expect(slots.isEmpty)
        slots[Self.walker(3)] = "again"
        #expect(slots[Self.walker(3)] == "again" && slots.count == 1)
    }
}
