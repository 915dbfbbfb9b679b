import BrokerAdminKit
import Foundation
import Testing

@Suite("The plugin's JSON: batches out, answers in")
struct ControlWireTests {
    @Test func aBatchIsTheCommandsWithTheirCorrelationData() throws {
        let batch = ControlBatch(
            id: "b1",
            commands: [
                .createClient(username: "alice.owntracks", password: "pw-123456", roles: ["device-alice"]),
                .addRoleACL(role: "device-alice", type: .publishClientSend, topic: "owntracks/alice/+", allow: true),
                .setDefaultACLAccess([.init(.publishClientReceive, allow: false)]),
            ])
        let json = String(decoding: try batch.payload(), as: UTF8.self)
        #expect(
            json
                == #"{"commands":[{"command":"createClient","correlationData":"b1/0","password":"pw-123456","roles":[{"rolename":"device-alice"}],"username":"alice.owntracks"},"#
                + #"{"acltype":"publishClientSend","allow":true,"command":"addRoleACL","correlationData":"b1/1","rolename":"device-alice","topic":"owntracks/alice/+"},"#
                + #"{"acls":[{"acltype":"publishClientReceive","allow":false}],"command":"setDefaultACLAccess","correlationData":"b1/2"}]}"#
        )
    }

    @Test func aCommandDescribedForALogHasNoPassword() {
        let commands: [ControlCommand] = [
            .createClient(username: "alice", password: "hunter2-secret"),
            .setClientPassword(username: "alice", password: "hunter2-secret"),
        ]
        for command in commands {
            #expect(!command.description.contains("hunter2"))
            #expect(command.description.contains("alice"))
        }
    }

    /// What Mosquitto 2.0.11's plugin answered on this machine to
    /// `[setDefaultACLAccess, getDefaultACLAccess (correlationData x1), createClient of an existing user]`.
    static let measured = #"""
        {"responses":[{"command":"setDefaultACLAccess"},{"command":"getDefaultACLAccess","data":{"acls":[{"acltype":"publishClientSend","allow":false},{"acltype":"publishClientReceive","allow":false},{"acltype":"subscribe","allow":false},{"acltype":"unsubscribe","allow":true}]},"correlationData":"x1"},{"command":"createClient","error":"Client already exists"}]}
        """#

    @Test func thePluginsRealAnswerReads() throws {
        let replies = try #require(ControlBatch.replies(in: Data(Self.measured.utf8)))
        #expect(replies.map(\.command) == ["setDefaultACLAccess", "getDefaultACLAccess", "createClient"])
        #expect(replies[2].error == PluginError.clientExists)
        #expect(replies[1].data?.acls?.first { $0.acltype == .publishClientReceive }?.allow == false)
    }

    @Test func anAnswerFindsItsBatch() throws {
        let batch = ControlBatch(
            id: "8F0C-1", commands: [.deleteClient(username: "alice"), .deleteRole(name: "device-alice")])
        let answer =
            #"{"responses":[{"command":"deleteClient","correlationData":"8F0C-1/0"},{"command":"deleteRole","error":"Role not found","correlationData":"8F0C-1/1"}]}"#
        #expect(ControlBatch.batchID(of: Data(answer.utf8)) == "8F0C-1")
        let replies = try #require(ControlBatch.replies(in: Data(answer.utf8)))
        #expect(batch.match(replies)?.map(\.error) == [nil, PluginError.roleNotFound])
    }

    @Test func anotherBatchsAnswerDoesNotMatch() throws {
        let batch = ControlBatch(id: "b1", commands: [.deleteClient(username: "alice")])
        let other = [ControlReply(command: "deleteClient", correlationData: "b2/0")]
        let renamed = [ControlReply(command: "createClient", correlationData: "b1/0")]
        let extra = [ControlReply(command: "deleteClient", correlationData: "b1/0"), ControlReply(command: "x")]
        #expect(batch.match(other) == nil)
        #expect(batch.match(renamed) == nil)
        #expect(batch.match(extra) == nil)
        // The plugin's answer to a payload it could not read names no batch.
        let unreadable = #"{"responses":[{"command":"Unknown command","error":"Payload not valid JSON"}]}"#
        #expect(ControlBatch.batchID(of: Data(unreadable.utf8)) == nil)
        #expect(ControlBatch.batchID(of: Data("garbage".utf8)) == nil)
    }
}
