import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkWebKit
import Testing

/// web's side of the accounts topics: a command is published on `_accounts/command` and its
/// caller gets the answer with the same id from `_accounts/result`; an erase request goes to the
/// one service asked and only that service's report for that id answers it. Answers for someone
/// else, late ones and unreadable ones are ignored, and a cancelled wait returns at once.
@Suite("web ↔ broker over the accounts topics")
struct BrokerAccountsTests {
    let prefix = "safewalk"
    let alice = WalkerID(validating: "alice")!

    /// Answers every command on the bus the way broker-admin does, after answering a decoy first.
    func answerCommands(on bus: InMemoryMessageBus, ok: Bool) async throws -> Task<Void, any Error> {
        let commands = try await bus.subscribe(Topic.accountCommand.name(prefix: prefix), qos: .atLeastOnce)
        return Task {
            for await message in commands {
                let command = try SafeWalkJSON.decode(AccountCommand.self, from: message.payload)
                let decoy = AccountCommandResult(id: "someone-else", ok: true)
                try await bus.publish(Topic.accountResult.name(prefix: prefix), payload: try SafeWalkJSON.encode(decoy))
                try await bus.publish(Topic.accountResult.name(prefix: prefix), payload: Data("garbage".utf8))
                let result = AccountCommandResult(id: command.id, ok: ok, error: ok ? nil : .exists)
                try await bus.publish(
                    Topic.accountResult.name(prefix: prefix), payload: try SafeWalkJSON.encode(result))
            }
        }
    }

    @Test func aCommandGetsTheAnswerWithItsOwnId() async throws {
        let bus = InMemoryMessageBus()
        let broker = try await BrokerAccounts.connect(bus: bus, prefix: prefix, logger: Logger(label: "test"))
        let responder = try await answerCommands(on: bus, ok: false)
        let listener = Task { try await broker.run() }
        defer {
            responder.cancel()
            listener.cancel()
        }
        let command = AccountCommand(id: "c-1", op: .createWalker, user: alice, password: "s3cret-pass")
        let result = try await broker.run(command)
        #expect(result == AccountCommandResult(id: "c-1", ok: false, error: .exists))
        let sent = try #require(bus.published(matching: Topic.accountCommand.name(prefix: prefix)).first)
        #expect(try SafeWalkJSON.decode(AccountCommand.self, from: sent.payload) == command)
    }

    @Test func anEraseRequestIsAnsweredOnlyByTheServiceAsked() async throws {
        let bus = InMemoryMessageBus()
        let broker = try await BrokerAccounts.connect(bus: bus, prefix: prefix, logger: Logger(label: "test"))
        let listener = Task { try await broker.run() }
        defer { listener.cancel() }
        let request = EraseRequest(id: "e-1", user: alice)
        let asked = Task { try await broker.erase(request, at: .contactsStore) }
        // Wait until the request is out, then answer as the wrong service first.
        while bus.published(matching: Topic.accountErase(.contactsStore).name(prefix: prefix)).isEmpty {
            await Task.yield()
        }
        let refusal = EraseReport(id: "e-1", user: alice, ok: false, error: .openIncident)
        try await bus.publish(
            Topic.accountErased(.watchdog).name(prefix: prefix), payload: try SafeWalkJSON.encode(refusal))
        let done = EraseReport(id: "e-1", user: alice, ok: true)
        try await bus.publish(
            Topic.accountErased(.contactsStore).name(prefix: prefix), payload: try SafeWalkJSON.encode(done))
        #expect(try await asked.value == done)
    }

    @Test func aCancelledWaitReturnsAtOnce() async throws {
        let bus = InMemoryMessageBus()
        let broker = try await BrokerAccounts.connect(bus: bus, prefix: prefix, logger: Logger(label: "test"))
        let waiting = Task { try await broker.run(AccountCommand(id: "c-2", op: .disable, user: alice)) }
        while bus.published(matching: Topic.accountCommand.name(prefix: prefix)).isEmpty { await Task.yield() }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }
}
