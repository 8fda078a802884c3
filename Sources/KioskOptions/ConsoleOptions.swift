// `kiosk-recorder console [--config FILE] [--control-socket PATH] [--listen unix:PATH|HOST:PORT]
// [--password-file PATH] [--pages DIR]` (the operator's console) and `kiosk-recorder console password
// [--password-file PATH]` (its password): their command lines, read here (pure). The booth's own
// options among them (`--config`, `--control-socket`) go to the booth's parser, so the console
// finds the control socket exactly as `send` does.

/// What `console` was asked for.
public struct ConsoleOptions: Equatable, Sendable {
    public enum Listen: Equatable, Sendable {
        case unix(String)
        case tcp(host: String, port: UInt16)
    }

    public enum Action: Equatable, Sendable {
        /// Serve the console.
        case serve
        /// Set the password (`console password`).
        case setPassword
        case help
    }

    public var action = Action.serve
    public var listen = Listen.unix("/run/kiosk-recorder/console.sock")
    public var passwordFile = "/var/lib/kiosk-recorder/console-password"
    /// The page's files (`--pages DIR`); nil: the installed ones, found from the executable's own
    /// path (`<prefix>/bin/kiosk-recorder` → `<prefix>/share/kiosk-recorder/console`).
    public var pages: String?
    /// The booth's options given (`--config FILE`, `--control-socket PATH`), for the booth's parser.
    public var boothArguments: [String] = []

    public init() {}

    /// The audit log: beside the password file.
    public var auditLog: String {
        guard let slash = passwordFile.lastIndex(of: "/") else { return "console-audit.log" }
        return String(passwordFile[...slash]) + "console-audit.log"
    }

    /// The hosts' film made from the console: beside the password file too.
    public var filmFile: String {
        guard let slash = passwordFile.lastIndex(of: "/") else { return "console-film.mp4" }
        return String(passwordFile[...slash]) + "console-film.mp4"
    }

    public static let usage = "kiosk-recorder console [--config FILE] [--control-socket PATH] [--listen unix:PATH|HOST:PORT] [--password-file PATH] [--pages DIR]"

    /// `console --help` and `kiosk-recorder help console`.
    public static let help = """
        Usage: kiosk-recorder console [--config FILE] [--control-socket PATH]
                 [--listen unix:PATH|HOST:PORT] [--password-file PATH] [--pages DIR]
               kiosk-recorder console password [--password-file PATH]
        The operator's console: a web page under /console/ that drives the booth only through its
        control socket (control-socket in the booth's --config file, or --control-socket).
          --config FILE          the booth's config file, read by the booth's own parser
          --control-socket PATH  the booth's control socket (instead of the config file's)
          --listen unix:PATH|HOST:PORT
                                 where to listen (default unix:/run/kiosk-recorder/console.sock);
                                 X-Real-IP is trusted only on a Unix socket (nginx's)
          --password-file PATH   the operator's password, a yescrypt hash
                                 (default /var/lib/kiosk-recorder/console-password); the audit
                                 log is console-audit.log beside it, the film console-film.mp4
          --pages DIR            the page's files it serves itself where no nginx does (default
                                 the installed ones: /usr/share/kiosk-recorder/console beside
                                 /usr/bin/kiosk-recorder, for another prefix its own)
        console password reads the password from stdin (one line), or asks twice on a terminal;
        at least 8 characters.

        """

    /// Reads `console`'s arguments (after the word `console`). A bad one names itself.
    public static func parse(_ arguments: [String]) throws(UsageError) -> ConsoleOptions {
        var options = ConsoleOptions()
        var rest = arguments[...]
        if rest.first == "password" {
            options.action = .setPassword
            rest = rest.dropFirst()
        }
        while let word = rest.popFirst() {
            var name = word
            var inline: String?
            if let eq = word.firstIndex(of: "="), word.hasPrefix("--") {
                name = String(word[..<eq])
                inline = String(word[word.index(after: eq)...])
            }
            func value() throws(UsageError) -> String {
                if let inline { return inline }
                guard let next = rest.popFirst() else { throw UsageError("console: \(name) needs a value (\(usage))") }
                return next
            }
            switch name {
            case "--help", "-h": options.action = .help
            case "--password-file":
                let path = try value()
                guard !path.isEmpty else { throw UsageError("console: --password-file needs a path") }
                options.passwordFile = path
            case "--pages" where options.action != .setPassword:
                let path = try value()
                guard !path.isEmpty else { throw UsageError("console: --pages needs a folder") }
                options.pages = path
            case "--listen" where options.action != .setPassword:
                options.listen = try listen(try value())
            case "--config" where options.action != .setPassword, "--control-socket" where options.action != .setPassword:
                options.boothArguments += [name, try value()]
            default:
                let known = options.action == .setPassword ? ["--password-file"] : ["--config", "--control-socket", "--listen", "--password-file", "--pages"]
                let near = NearestName.hint(for: String(name.drop { $0 == "-" }), among: known.map { String($0.dropFirst(2)) }, prefix: "--")
                throw UsageError("console\(options.action == .setPassword ? " password" : ""): unknown argument '\(word.excerpt())'\(near)")
            }
        }
        return options
    }

    /// `unix:PATH` or `HOST:PORT` (`[IPv6]:PORT`).
    public static func listen(_ text: String) throws(UsageError) -> Listen {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            guard path.hasPrefix("/"), path.utf8.count < 108 else {
                throw UsageError("console: --listen '\(text)': a Unix socket is an absolute path of at most 107 bytes")
            }
            return .unix(path)
        }
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw UsageError("console: --listen '\(text.excerpt())' is not unix:PATH or HOST:PORT (e.g. 127.0.0.1:8080)")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw UsageError("console: --listen '\(text)' needs a host (e.g. 127.0.0.1:\(port))") }
        return .tcp(host: host, port: port)
    }
}
