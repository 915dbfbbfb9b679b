import NotifierKit
import SafeWalkCore
import Testing

/// The rules that decide which of N notifier instances acts on an input (docs/SCALING.md, "The
/// notifier partitioned"): each from the message alone, one instance each.
@Suite struct NotifierShareTests {
    // FNV-1a modulo 2, as the engine routes: alex and dana → 1, bob and carol → 0.
    static let alex = try! WalkerID("alex")
    static let bob = try! WalkerID("bob")
    static let shares = (0..<2).map { NotifierShare(WalkerPartition(index: $0, count: 2)) }

    @Test func eachPerWalkerTopicIsKeptByItsWalkersInstanceAndAnUnreadableOneByPartitionZero() {
        for topic in ["safewalk/alex/escalation", "safewalk/alex/contacts", "safewalk/_incidents/alex"] {
            #expect(Self.shares.map { $0.admits(topic: topic, prefix: "safewalk") } == [false, true], "\(topic)")
        }
        #expect(Self.shares.map { $0.admits(topic: "safewalk/bob/escalation", prefix: "safewalk") } == [true, false])
        #expect(Self.shares.map { $0.admits(topic: "safewalk/$bad/escalation", prefix: "safewalk") } == [true, false])
        #expect(NotifierShare(nil).admits(topic: "safewalk/alex/escalation", prefix: "safewalk"))
    }

    @Test func anAcknowledgementNamingItsWalkerIsAnsweredByThatWalkersInstanceOnly() {
        for via in [AcknowledgementChannel.page, .app, .desk] {
            let request = AcknowledgementRequest(
                id: "a", via: via, page: String(repeating: "a", count: 64), user: Self.bob, walker: Self.alex, at: 0)
            #expect(Self.shares.map { $0.turn(for: request) } == [.leave, .answer], "\(via)")
        }
        // A page's request from before web named the walker: partition 0 looks in its own ledger.
        let bare = AcknowledgementRequest(id: "a", via: .page, page: String(repeating: "a", count: 64), at: 0)
        #expect(Self.shares.map { $0.turn(for: bare) } == [.answer, .leave])
    }

    @Test func aTextReplyGoesToItsCodesInstanceAndWithoutACodeIsAskedForItOnce() {
        func sms(_ code: String?) -> AcknowledgementRequest {
            AcknowledgementRequest(id: "s", via: .sms, phone: "+15125550101", code: code, at: 0)
        }
        #expect(Self.shares.map { $0.turn(for: sms("4821")) } == [.leave, .answer])
        #expect(Self.shares.map { $0.turn(for: sms("0000")) } == [.answer, .leave])
        #expect(Self.shares.map { $0.turn(for: sms(nil)) } == [.askForCode, .leave])
        let three = (0..<3).map { NotifierShare(WalkerPartition(index: $0, count: 3)) }
        #expect(three.map { $0.turn(for: sms("4821")) } == [.answer, .leave, .leave], "4821 = 3 × 1607")
        #expect(NotifierShare(nil).turn(for: sms(nil)) == .answer, "one notifier picks the newest itself")
    }

    @Test func everyCodeAnInstanceMintsIsItsOwnModuloNAndFourDigits() throws {
        for count in [2, 3, 7, 100, WalkerPartition.maxCount] {
            for index in Set([0, 1, count / 2, count - 1]) {
                let share = NotifierShare(WalkerPartition(index: index, count: count))
                // The least and the greatest choice, and one between.
                let picks: [(Range<Int>) -> Int] = [{ $0.lowerBound }, { $0.upperBound - 1 }, { $0.count / 2 }]
                for pick in picks {
                    let code = share.mintCode(random: pick)
                    let value = try #require(Int(code))
                    #expect(code.utf8.count == 4 && (0..<10_000).contains(value), "\(code) of \(index)/\(count)")
                    #expect(value % count == index, "\(code) of \(index)/\(count)")
                }
            }
        }
        // One notifier uses the whole space.
        #expect(NotifierShare(nil).mintCode(random: { $0.upperBound - 1 }) == "9999")
        #expect(NotifierShare(nil).mintCode(random: { $0.lowerBound }) == "0000")
        // At N = 3, partition 0 reaches 9999 (3 × 3333) and partition 1 stops at 9997.
        #expect(NotifierShare(WalkerPartition(index: 0, count: 3)).mintCode(random: { $0.upperBound - 1 }) == "9999")
        #expect(NotifierShare(WalkerPartition(index: 1, count: 3)).mintCode(random: { $0.upperBound - 1 }) == "9997")
    }

    @Test func onlyPartitionZeroReportsWhatNamesNoWalker() {
        #expect(Self.shares.map(\.reportsUnowned) == [true, false])
        #expect(NotifierShare(nil).reportsUnowned)
    }
}
