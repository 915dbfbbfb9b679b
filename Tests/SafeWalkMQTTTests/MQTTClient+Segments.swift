import Foundation
import Testing

@testable import SafeWalkMQTT

extension MQTTClient {
    /// TCP segments with data the client's socket has sent (`tcpi_data_segs_out` of Linux's
    /// `TCP_INFO`, at byte 156 of `struct tcp_info` in linux/tcp.h; glibc's copy of the struct
    /// ends before it). Not `tcpi_segs_out`, which also counts the bare ACKs of the broker's
    /// packets.
    func dataSegmentsSent() throws -> UInt32 {
        let socket = socketDescriptor
        try #require(socket >= 0)
        var info = [UInt8](repeating: 0, count: 232)
        var length = socklen_t(info.count)
        let rc = info.withUnsafeMutableBytes {
            getsockopt(socket, Int32(IPPROTO_TCP), TCP_INFO, $0.baseAddress, &length)
        }
        try #require(rc == 0 && length >= 160)
        return info.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 156, as: UInt32.self) }
    }
}
