import SafeWalkWebKit
import Testing

@Suite struct PasswordHasherTests {
    /// Few rounds: these tests are about behaviour, not cost (the cost is measured by web-bench).
    let hasher = PasswordHasher(rounds: 1_000)

    @Test func theRightPasswordVerifiesAndAWrongOneDoesNot() {
        let stored = hasher.hash("correct horse 1!")
        #expect(hasher.verify("correct horse 1!", against: stored))
        #expect(!hasher.verify("correct horse 1?", against: stored))
        #expect(!hasher.verify("", against: stored))
    }

    @Test func everyHashHasItsOwnSalt() {
        let first = hasher.hash("same password 1!")
        let second = hasher.hash("same password 1!")
        #expect(first.salt != second.salt && first.key != second.key)
        #expect(first.salt.count == PasswordHasher.saltBytes && first.key.count == PasswordHasher.keyBytes)
    }

    @Test func theParametersAreStoredWithTheHashSoTheyCanBeRaisedLater() throws {
        let stored = hasher.hash("p4ssword!")
        let text = stored.description
        #expect(text.hasPrefix("pbkdf2-sha512$1000$"))
        #expect(PasswordHash(text) == stored)
        // A hasher with more rounds still verifies the old hash, and says it should be redone.
        let stronger = PasswordHasher(rounds: 2_000)
        #expect(stronger.verify("p4ssword!", against: try #require(PasswordHash(text))))
        #expect(stronger.needsRehash(stored) && !hasher.needsRehash(stored))
    }

    @Test func theDefaultIsPBKDF2SHA512With210000Rounds() {
        let stored = PasswordHasher().hash("p4ssword!")
        #expect(stored.rounds == 210_000 && PasswordHasher.defaultRounds == 210_000)
        #expect(stored.description.hasPrefix("pbkdf2-sha512$210000$"))
    }

    @Test(arguments: [
        "", "bcrypt$10$abc$def", "pbkdf2-sha512$x$AAAA$AAAA", "pbkdf2-sha512$10$$AAAA", "pbkdf2-sha512$10$AAAA",
    ])
    func somethingThisCodeDidNotWriteIsNoHash(text: String) {
        #expect(PasswordHash(text) == nil)
    }

    @Test func aPasswordIsTheSameWhicheverWayItsAccentsWereTyped() {
        let stored = hasher.hash("caf\u{E9} 1234!")
        #expect(hasher.verify("cafe\u{301} 1234!", against: stored))
    }

    @Test func passwordWorkRefusesWhenTooMuchIsQueuedAndRunsOffThePool() async throws {
        let work = PasswordWork(hasher: hasher, limit: 4)
        let stored = try await work.hash("p4ssword!")
        #expect(try await work.verify("p4ssword!", against: stored))
        // No account: the stand-in hash is verified (same cost) and the answer is always no.
        #expect(try await !work.verify("p4ssword!", against: nil))
    }
}
