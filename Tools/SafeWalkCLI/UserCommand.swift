import ArgumentParser
import Foundation
import Logging
import SafeWalkWebKit

/// `safewalk user add`: an account for a walker (through the web service, like any sign-up), or a
/// broker login for a service.
struct UserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Add walkers' accounts and service users' broker logins.",
        subcommands: [UserAddCommand.self])
}

struct UserAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a walker's account, or a service user's broker login.",
        discussion: """
            A walker gets an account exactly as a person signing up does: POST /v1/accounts on the \
            web service (--web), which checks the name, e-mail and password rules and has \
            broker-admin create the broker login at once, with no broker reload. The password \
            comes from SAFEWALK_NEW_PASSWORD, or is generated and printed once. With --service, a \
            service user is written to the broker's password file by scripts/add-user.sh \
            (mosquitto_passwd) instead: service users are not accounts. With --operator, an \
            operator of the monitoring desk (at web's /ops) is written to web's own store \
            (web.sqlite in --data-dir): only someone who can write that file, or an admin at /ops, \
            can make one. An operator has no broker login.
            """)

    @Argument(help: "A walker id ([A-Za-z0-9_-]{1,64}), or a service user with --service.")
    var name: String

    @Option(help: "The walker's e-mail address (required for a walker).")
    var email: String?

    @Option(help: "The web service (default: $SAFEWALK_WEB_URL, else http://127.0.0.1:8080).")
    var web: String?

    @Flag(help: "Add one of the service users named in mosquitto/acl.")
    var service = false

    @Flag(help: "Add an operator of the monitoring desk (web's /ops), written to web's store.")
    var `operator` = false

    @Flag(help: "With --operator: the operator is an admin, who may add operators at /ops.")
    var admin = false

    @Option(help: "With --operator: web's data directory (default: $SAFEWALK_DATA_DIR, else ./data).")
    var dataDir: String?

    @Option(help: "With --service: the password file (default: $SAFEWALK_PASSWORD_FILE or mosquitto/passwd).")
    var file: String?

    @Option(help: "With --service: the SafeWalk repository (default: $SAFEWALK_REPO, else found from here).")
    var repo: String?

    func validate() throws {
        do {
            try UserNameRule.validate(name, service: service)
        } catch {
            throw ValidationError(error.description)
        }
        if admin, !`operator` { throw ValidationError("--admin is for operators (--operator)") }
        if !`operator`, dataDir != nil { throw ValidationError("--data-dir is for operators (--operator)") }
        if `operator` {
            guard !service else { throw ValidationError("--operator and --service exclude each other") }
            guard email != nil else { throw ValidationError("an operator's account needs --email") }
            guard web == nil, file == nil else { throw ValidationError("an operator is written to --data-dir") }
        } else if service {
            guard email == nil, web == nil else { throw ValidationError("--email and --web are for walkers") }
        } else {
            guard email != nil else { throw ValidationError("a walker's account needs --email") }
            guard file == nil else { throw ValidationError("--file is for service users (--service)") }
            guard webURL != nil else { throw ValidationError("--web must be an http:// or https:// URL") }
        }
    }

    private var webURL: URL? {
        let text = web ?? ProcessInfo.processInfo.environment["SAFEWALK_WEB_URL"] ?? "http://127.0.0.1:8080"
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? "") else { return nil }
        return url
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        if service {
            let root = try RepositoryLocator.find(explicit: repo ?? environment["SAFEWALK_REPO"])
            var arguments = [root.appendingPathComponent("scripts/add-user.sh").path, name, "--service"]
            if let file { arguments += ["--file", URL(fileURLWithPath: file).standardizedFileURL.path] }
            try ProcessExec.replace(with: "/bin/bash", arguments: arguments, environment: environment)
        }
        let given = environment["SAFEWALK_NEW_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        let password = given ?? AccountSignUp.generatedPassword()
        if `operator`, let email {
            let directory = dataDir ?? environment["SAFEWALK_DATA_DIR"] ?? "./data"
            try await addOperator(email: email, password: password, directory: directory)
            if given == nil { print("password: \(password)") }
            return
        }
        guard let webURL, let email else { throw CLIError.invalidInput("a walker's account needs --email and --web") }
        try await AccountSignUp(web: webURL).create(username: name, email: email, password: password)
        print("account '\(name)' created through \(webURL.absoluteString)")
        if given == nil { print("password: \(password)") }
    }

    /// Writes the operator to web's store, as web's own `POST /v1/desk/operators` would.
    private func addOperator(email: String, password: String, directory: String) async throws {
        let form: SignUpForm
        do {
            form = try SignUpForm(username: name, email: email, password: password)
        } catch {
            throw CLIError.invalidInput(error.message)
        }
        var logger = Logger(label: "safewalk.user")
        logger.logLevel = .warning
        let database = try WebDatabase.open(
            directory: URL(fileURLWithPath: directory, isDirectory: true), logger: logger)
        let hash = PasswordHasher().hash(form.password)
        switch try await database.insertOperator(form, hash: hash, role: admin ? .admin : .operator, at: Date()) {
        case .inserted:
            print("\(admin ? "admin" : "operator") '\(name)' added to the monitoring desk (\(directory)/web.sqlite)")
        case .usernameTaken: throw CLIError.invalidInput("the name '\(name)' is taken")
        case .emailTaken: throw CLIError.invalidInput("the e-mail address is taken")
        }
    }
}
