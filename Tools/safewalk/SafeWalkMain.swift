import SafeWalkCLI

/// The `safewalk` command-line tool; every command lives in SafeWalkCLI so it can be tested.
@main
enum SafeWalkMain {
    static func main() async {
        await SafeWalkCommand.main()
    }
}
