import SafeWalkCore
import Testing

@Suite struct AccountCommandTests {
    @Test func aCommandInALogNeverShowsItsPassword() throws {
        let command = AccountCommand(
            id: "c1", op: .createWalker, user: try WalkerID("alice"), password: "hunter2-secret")
        for text in ["\(command)", String(reflecting: command), "\([command])", "\(Optional(command) as Any)"] {
            #expect(!text.contains("hunter2"), "\(text)")
            #expect(text.contains("alice") && text.contains("createWalker"), "\(text)")
        }
    }

    @Test func theDeviceLoginHoldsADotSoItIsNeverAWalkersLogin() throws {
        let device = AccountCommand.deviceUsername(for: try WalkerID("alice"))
        #expect(device == "alice.owntracks")
        #expect(WalkerID(validating: device) == nil)
    }
}
