import BrokerAdminKit
import Foundation
import SafeWalkCore
import Testing

@Suite("What broker-admin accepts on _accounts/command")
struct AccountIntakeTests {
    func read(_ json: String, retained: Bool = false) -> AccountIntake {
        AccountIntake.read(Data(json.utf8), retained: retained)
    }

    @Test func aWellFormedCreateIsAccepted() throws {
        let outcome = read(#"{"v":1,"id":"c1","op":"createWalker","user":"alice","password":"s3cret-pass"}"#)
        let expected = AccountCommand(
            id: "c1", op: .createWalker, user: try WalkerID("alice"), password: "s3cret-pass")
        #expect(outcome == .accepted(expected))
    }

    @Test func aPasswordWhereNoneIsNeededIsDropped() throws {
        let outcome = read(#"{"v":1,"id":"c2","op":"disable","user":"alice","password":"whatever-1"}"#)
        #expect(outcome == .accepted(AccountCommand(id: "c2", op: .disable, user: try WalkerID("alice"))))
    }

    @Test(arguments: [
        "watchdog", "location-ingest", "companion-chat", "notifier", "contacts-store", "channel-example",
        "operator", "web", "broker-admin", "admin", "root", "Watchdog", "BROKER-ADMIN", "Root",
    ])
    func aServiceUsersNameIsRefused(name: String) {
        let outcome = read(#"{"v":1,"id":"c3","op":"createWalker","user":"\#(name)","password":"long-enough"}"#)
        #expect(outcome == .refused(.serviceUser, id: "c3"))
    }

    @Test(arguments: ["_x", "__", "_Service"])
    func aNameStartingWithAnUnderscoreIsRefused(name: String) {
        let outcome = read(#"{"v":1,"id":"c4","op":"setPassword","user":"\#(name)","password":"long-enough"}"#)
        #expect(outcome == .refused(.reservedUser, id: "c4"))
    }

    /// The topic levels `WalkerID` itself reserves never even decode as a walker.
    @Test(arguments: ["_service", "_rejected", "_accounts"])
    func aReservedTopicLevelIsNoWalker(name: String) {
        let outcome = read(#"{"v":1,"id":"c4","op":"createWalker","user":"\#(name)","password":"long-enough"}"#)
        #expect(outcome == .refused(.unreadable(.invalidValue("user")), id: "c4"))
    }

    @Test(arguments: [AccountCommand.Operation.createWalker, .setPassword, .setDevicePassword])
    func anOperationThatNeedsAPasswordIsRefusedWithoutOne(op: AccountCommand.Operation) {
        let outcome = read(#"{"v":1,"id":"c5","op":"\#(op.rawValue)","user":"alice"}"#)
        #expect(outcome == .refused(.missingPassword, id: "c5"))
    }

    @Test(arguments: ["short", String(repeating: "x", count: 257), "abcdefgh\\u0000tail"])
    func anUnusablePasswordIsRefused(password: String) {
        let outcome = read(#"{"v":1,"id":"c6","op":"createWalker","user":"alice","password":"\#(password)"}"#)
        #expect(outcome == .refused(.invalidPassword, id: "c6"))
    }

    @Test func passwordLengthIsCountedInCharacters() throws {
        let eight = "ñandú-42"  // 8 characters, 10 bytes
        let outcome = read(#"{"v":1,"id":"c7","op":"createWalker","user":"alice","password":"\#(eight)"}"#)
        #expect(
            outcome
                == .accepted(AccountCommand(id: "c7", op: .createWalker, user: try WalkerID("alice"), password: eight)))
        let longest = String(repeating: "y", count: 256)
        let atLimit = read(#"{"v":1,"id":"c8","op":"setPassword","user":"alice","password":"\#(longest)"}"#)
        #expect(
            atLimit
                == .accepted(AccountCommand(id: "c8", op: .setPassword, user: try WalkerID("alice"), password: longest))
        )
    }

    @Test func anUnreadableCommandIsRefusedWithItsIdWhenTheIdCanBeRead() {
        #expect(
            read(#"{"v":1,"id":"c9","op":"grantAdmin","user":"alice"}"#)
                == .refused(.unreadable(.invalidValue("op")), id: "c9"))
        #expect(
            read(#"{"v":1,"id":"c10","op":"disable","user":"a/b"}"#)
                == .refused(.unreadable(.invalidValue("user")), id: "c10"))
        #expect(read(#"{"v":1,"id":"c11","op":"disable","user":"alice.owntracks"}"#).refusalCode == "invalid_value")
        #expect(
            read(#"{"id":"c12","op":"disable","user":"alice"}"#) == .refused(.unreadable(.missingVersion), id: "c12"))
        #expect(read(#"{"v":1,"id":"c13","op":"disable"}"#) == .refused(.unreadable(.missingField("user")), id: "c13"))
    }

    @Test func malformedInputHasNoIdToAnswer() {
        #expect(read("not json") == .refused(.unreadable(.malformed), id: nil))
        #expect(read(#"["c1"]"#) == .refused(.unreadable(.malformed), id: nil))
        #expect(read(#"{"v":1,"id":"c1","op":"disable","user":"alice""#) == .refused(.unreadable(.malformed), id: nil))
        let huge =
            #"{"v":1,"id":"c1","op":"disable","user":"alice","pad":""# + String(repeating: "x", count: 5000) + #""}"#
        #expect(read(huge) == .refused(.unreadable(.tooLarge(bytes: huge.utf8.count, limit: 4096)), id: nil))
    }

    @Test(arguments: ["", String(repeating: "i", count: 129), "line\\nbreak"])
    func anUnusableIdIsRefusedAndNotAnswered(id: String) {
        let outcome = read(#"{"v":1,"id":"\#(id)","op":"disable","user":"alice"}"#)
        #expect(outcome == .refused(.invalidID, id: nil))
    }

    @Test func aRetainedCommandIsRefusedButAnswered() {
        let outcome = read(#"{"v":1,"id":"c14","op":"disable","user":"alice"}"#, retained: true)
        #expect(outcome == .refused(.retained, id: "c14"))
    }

    @Test func refusalCodesAreStable() {
        let codes = [
            AccountRefusal.invalidID, .reservedUser, .serviceUser, .missingPassword, .invalidPassword, .retained,
            .unreadable(.malformed),
        ].map(\.code)
        #expect(
            codes == [
                "invalid_id", "reserved_user", "service_user", "missing_password", "invalid_password", "retained",
                "malformed",
            ])
    }
}

@Suite("What broker-admin accepts on _accounts/erase/broker-admin")
struct EraseIntakeTests {
    @Test func aWellFormedRequestIsAccepted() throws {
        let outcome = EraseIntake.read(Data(#"{"v":1,"id":"e1","user":"alice"}"#.utf8))
        #expect(outcome == .accepted(EraseRequest(id: "e1", user: try WalkerID("alice"))))
    }

    @Test func systemNamesAndBadInputAreRefused() {
        #expect(EraseIntake.read(Data(#"{"v":1,"id":"e1","user":"watchdog"}"#.utf8)) == .refused(.serviceUser))
        #expect(EraseIntake.read(Data(#"{"v":1,"id":"e1","user":"_x"}"#.utf8)) == .refused(.reservedUser))
        #expect(
            EraseIntake.read(Data(#"{"v":1,"id":"e1","user":"_service"}"#.utf8))
                == .refused(.unreadable(.invalidValue("user"))))
        #expect(EraseIntake.read(Data(#"{"v":1,"id":"","user":"alice"}"#.utf8)) == .refused(.invalidID))
        #expect(EraseIntake.read(Data("{".utf8)) == .refused(.unreadable(.malformed)))
        #expect(
            EraseIntake.read(Data(#"{"v":1,"id":"e1","user":"alice"}"#.utf8), retained: true) == .refused(.retained))
    }
}

extension AccountIntake {
    var refusalCode: String? {
        if case .refused(let why, _) = self { return why.code }
        return nil
    }
}
