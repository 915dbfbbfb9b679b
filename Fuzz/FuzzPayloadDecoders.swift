// libFuzzer entry point: every decoder that reads bytes from the network, fed the same input.
// Built by Fuzz/run.sh with `swiftc -sanitize=fuzzer,address` together with SafeWalkCore's sources.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let now = 1_800_000_000.0
    _ = try? FixDecoder.decode(data, now: now, policy: FixPolicy())
    // Differential: whatever the fast scanner accepts, Foundation's decoder reads the same.
    if let fast = data.withUnsafeBytes(FlatFixScanner.scan),
       (try? FixDecoder.parseWithFoundation(data)) != .fix(fast) {
        fatalError("FlatFixScanner and JSONDecoder disagree on \(String(decoding: data, as: UTF8.self))")
    }
    _ = try? SafeWalkJSON.decode(Action.self, from: data, maxBytes: 64 * 1024)
    // And for replies: whatever `scanReply` accepts, the full decoder reads the same.
    let fullReply = try? SafeWalkJSON.decode(Reply.self, from: data, maxBytes: 64 * 1024)
    if let fast = data.withUnsafeBytes(FlatFixScanner.scanReply), fullReply != fast {
        fatalError("scanReply and JSONDecoder disagree on \(String(decoding: data, as: UTF8.self))")
    }
    // The same for retained positions: whatever `scanPosition` accepts, the full decoder reads the same.
    if let fast = data.withUnsafeBytes(FlatFixScanner.scanPosition),
       (try? SafeWalkJSON.decode(PositionUpdate.self, from: data, maxBytes: 64 * 1024)) != fast {
        fatalError("scanPosition and JSONDecoder disagree on \(String(decoding: data, as: UTF8.self))")
    }
    _ = try? SafeWalkJSON.decode(EscalationEvent.self, from: data, maxBytes: 64 * 1024)
    _ = try? SafeWalkJSON.decode(ContactAdd.self, from: data, maxBytes: 64 * 1024)
    _ = try? SafeWalkJSON.decode(ContactRemove.self, from: data, maxBytes: 64 * 1024)
    _ = try? SafeWalkJSON.decode(ContactList.self, from: data, maxBytes: 64 * 1024)
    _ = Presence(payload: data)
    if let text = String(data: data, encoding: .utf8) {
        _ = QuickReply.lookup(text)
        _ = PhoneNumber.normalise(text)
        _ = WalkerID(validating: text)
        _ = Topic.parse(text, prefix: "safewalk")
        _ = PercentEncoding.encode(text)
    }
    return 0
}
