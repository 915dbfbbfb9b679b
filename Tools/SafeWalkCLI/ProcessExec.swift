#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces the CLI with another program (`up`, `user add`), so Ctrl-C and SIGTERM reach it
/// directly and its exit status is ours.
enum ProcessExec {
    static func replace(with program: String, arguments: [String], environment: [String: String]) throws(CLIError)
        -> Never
    {
        // Worker threads of the concurrency runtime may block signals, and a blocked mask survives
        // exec: the stack would then ignore SIGTERM. Clear it on this very thread first.
        var empty = sigset_t()
        sigemptyset(&empty)
        pthread_sigmask(SIG_SETMASK, &empty, nil)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        execve(program, argv, envp)
        let reason = String(cString: strerror(errno))
        throw .launchFailed(program: program, reason: reason)
    }
}
