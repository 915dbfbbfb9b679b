import NotifierKit
import Testing

/// RFC 4231's HMAC-SHA256 test cases (case 5 tests truncated output, which webhooks do not use),
/// so that the signature webhooks carry stays the standard one whatever computes it.
@Suite("HMAC-SHA256 against RFC 4231's vectors")
struct HMACSHA256Tests {
    func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return out
    }

    @Test func rfc4231Case1() {
        let mac = HMACSHA256.authenticate(Array("Hi There".utf8), key: [UInt8](repeating: 0x0b, count: 20))
        #expect(HMACSHA256.hex(mac) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    @Test func rfc4231Case2ShortKey() {
        let mac = HMACSHA256.authenticate(Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
        #expect(HMACSHA256.hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func rfc4231Case3FiftyBytes() {
        let mac = HMACSHA256.authenticate([UInt8](repeating: 0xdd, count: 50), key: [UInt8](repeating: 0xaa, count: 20))
        #expect(HMACSHA256.hex(mac) == "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe")
    }

    @Test func rfc4231Case4() {
        let key = bytes("0102030405060708090a0b0c0d0e0f10111213141516171819")
        let mac = HMACSHA256.authenticate([UInt8](repeating: 0xcd, count: 50), key: key)
        #expect(HMACSHA256.hex(mac) == "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b")
    }

    @Test func rfc4231Case6KeyLongerThanABlock() {
        let mac = HMACSHA256.authenticate(
            Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            key: [UInt8](repeating: 0xaa, count: 131))
        #expect(HMACSHA256.hex(mac) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func rfc4231Case7LongKeyAndLongData() {
        let data =
            "This is a test using a larger than block-size key and a larger than block-size data. "
            + "The key needs to be hashed before being used by the HMAC algorithm."
        let mac = HMACSHA256.authenticate(Array(data.utf8), key: [UInt8](repeating: 0xaa, count: 131))
        #expect(HMACSHA256.hex(mac) == "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2")
    }
}
