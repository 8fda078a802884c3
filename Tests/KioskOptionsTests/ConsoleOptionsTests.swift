// `kiosk-recorder console …` and `console password …`: their command lines by table.
import Testing
@testable import KioskCore
@testable import KioskOptions

@Suite("console's command line")
struct ConsoleOptionsTests {
    @Test("the defaults: the Unix socket nginx proxies to, the password in the booth's state folder, the audit log beside it")
    func defaults() throws {
        let options = try ConsoleOptions.parse([])
        #expect(options.action == .serve && options.listen == .unix("/run/kiosk-recorder/console.sock"))
        #expect(options.passwordFile == "/var/lib/kiosk-recorder/console-password")
        #expect(options.auditLog == "/var/lib/kiosk-recorder/console-audit.log")
        #expect(options.boothArguments.isEmpty)
    }

    @Test("each option, spaced or with =; the booth's own go to the booth's parser in order")
    func values() throws {
        let options = try ConsoleOptions.parse(["--config", "/etc/k.conf", "--listen=127.0.0.1:8080", "--password-file", "/x/pw",
                                                "--control-socket=/run/c"])
        #expect(options.listen == .tcp(host: "127.0.0.1", port: 8080))
        #expect(options.passwordFile == "/x/pw" && options.auditLog == "/x/console-audit.log")
        #expect(options.boothArguments == ["--config", "/etc/k.conf", "--control-socket", "/run/c"])
        #expect(try ConsoleOptions.parse(["password", "--password-file", "pw"]).action == .setPassword)
        #expect(try ConsoleOptions.parse(["password", "--password-file", "pw"]).auditLog == "console-audit.log")
        #expect(try ConsoleOptions.parse(["--help"]).action == .help)
    }

    @Test("--listen: unix:PATH, HOST:PORT, [IPv6]:PORT", arguments: [
        ("unix:/run/k/console.sock", ConsoleOptions.Listen.unix("/run/k/console.sock")),
        ("0.0.0.0:80", .tcp(host: "0.0.0.0", port: 80)), ("[::1]:8080", .tcp(host: "::1", port: 8080)),
        ("localhost:0", .tcp(host: "localhost", port: 0)),
    ])
    func listen(text: String, expected: ConsoleOptions.Listen) throws {
        #expect(try ConsoleOptions.listen(text) == expected)
    }

    @Test("a bad argument names itself", arguments: [
        (["--listen", "nowhere"], "console: --listen 'nowhere' is not unix:PATH or HOST:PORT"),
        (["--listen", "127.0.0.1:70000"], "console: --listen '127.0.0.1:70000' is not unix:PATH or HOST:PORT"),
        (["--listen", "unix:relative.sock"], "console: --listen 'unix:relative.sock': a Unix socket is an absolute path"),
        (["--listen", ":80"], "console: --listen ':80' needs a host"),
        (["--listne", "x"], "console: unknown argument '--listne' (did you mean --listen?)"),
        (["--fps", "30"], "console: unknown argument '--fps'"),
        (["--listen"], "console: --listen needs a value"),
        (["password", "--listen", "unix:/x"], "console password: unknown argument '--listen'"),
        (["--password-file", ""], "console: --password-file needs a path"),
    ])
    func bad(arguments: [String], message: String) {
        #expect(throws: UsageError.self) { try ConsoleOptions.parse(arguments) }
        do { _ = try ConsoleOptions.parse(arguments) } catch { #expect(error.message.hasPrefix(message), "\(error.message)") }
    }

    @Test("help console is console --help's text")
    func help() throws {
        #expect(try OptionParser.help(topic: "console") == ConsoleOptions.help)
        #expect(ConsoleOptions.help.contains("console password"))
    }
}
