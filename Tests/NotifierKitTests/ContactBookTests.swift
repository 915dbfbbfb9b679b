import NotifierKit
import SafeWalkCore
import TestSupport
import Testing

@Suite("Contact book: retained lists kept in memory")
struct ContactBookTests {
    @Test func aNewListReplacesTheOldAndAnEmptyOneClearsIt() async {
        let book = ContactBook()
        await book.update(Fixtures.walker, contacts: [Fixtures.ana, Fixtures.ben])
        await book.update(Fixtures.walker, contacts: [Fixtures.ben])
        #expect(await book.contacts(for: Fixtures.walker) == [Fixtures.ben])
        await book.update(Fixtures.walker, contacts: nil)
        #expect(await book.contacts(for: Fixtures.walker) == [])
    }

    @Test func anEscalationWaitsForItsWalkersListUntilTheBookSettles() async throws {
        let book = ContactBook()
        let waiting = Task { await book.contacts(for: Fixtures.walker) }
        await book.update(try WalkerID("someone-else"), contacts: [Fixtures.ben])
        await book.update(Fixtures.walker, contacts: [Fixtures.ana])
        #expect(await waiting.value == [Fixtures.ana])

        let nobody = try WalkerID("nobody")
        let unknown = Task { await book.contacts(for: nobody) }
        await book.settle()
        #expect(await unknown.value == [])
        #expect(await book.contacts(for: try WalkerID("later")) == [])  // settled: no waiting
    }
}
