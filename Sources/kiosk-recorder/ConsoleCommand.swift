// `kiosk-recorder console …` (the operator's console) and `console password` (its password): the
// options read, the booth's control socket found by the booth's own parser, the HTTP daemon started
// with the booth reached only through that socket (ControlSender's exchange, as `send` uses it).
import FoundationEssentials
import Glibc
import KioskBooth
import KioskConsole
import KioskCore
import KioskMedia
import KioskOptions
import KioskPassword
import KioskStorage
import KioskSleep
import KioskSystem
import KioskUI

enum ConsoleCommand {
    /// Runs `console` with `arguments` (after the word `console`); returns the exit status, or
    /// never returns while it serves.
    static func run(_ arguments: [String]) -> Int32 {
        let options: ConsoleOptions
        do throws(UsageError) { options = try ConsoleOptions.parse(arguments) } catch {
            Log.write("kiosk-recorder: \(Log.escaped(error.message))\nTry 'kiosk-recorder help console'.\n")
            return 2
        }
        switch options.action {
        case .help:
            _ = writeAll(Data(ConsoleOptions.help.utf8), to: 1)
            return 0
        case .setPassword:
            return setPassword(options.passwordFile)
        case .serve:
            return serve(options)
        }
    }

    /// `console password`: one line from stdin, or asked twice without echo on a terminal.
    static func setPassword(_ path: String) -> Int32 {
        let password: String
        if isatty(0) == 1 {
            guard let first = askWithoutEcho("Console password: "), let second = askWithoutEcho("Again: ") else {
                Log.write("kiosk-recorder: console password: no password typed\n")
                return 2
            }
            guard first == second else {
                Log.write("kiosk-recorder: console password: the two passwords differ; nothing was written\n")
                return 2
            }
            password = first
        } else {
            guard let line = readLine(strippingNewline: true) else {
                Log.write("kiosk-recorder: console password: no password on stdin (one line)\n")
                return 2
            }
            password = line.hasSuffix("\r") ? String(line.dropLast()) : line
        }
        guard password.count >= PasswordHash.minimumLength else {
            Log.write("kiosk-recorder: console password: the password has \(password.count) characters; it needs at least \(PasswordHash.minimumLength)\n")
            return 2
        }
        guard let hash = PasswordHash.yescrypt(password) else {
            Log.write("kiosk-recorder: console password: libxcrypt could not make a yescrypt hash\n")
            return 1
        }
        do throws(ConsoleError) { try PasswordHash.write(hash, to: path) } catch {
            Log.write("kiosk-recorder: console password: cannot write \(path): \(error)\n")
            return 1
        }
        Log.info("console password set in \(path) (yescrypt, mode 0600)")
        return 0
    }

    /// One line typed on the terminal with echo off (the prompt on stderr); nil at end of input.
    static func askWithoutEcho(_ prompt: String) -> String? {
        Log.write(prompt)
        var saved = termios()
        let hasTerminal = tcgetattr(0, &saved) == 0
        if hasTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(0, TCSAFLUSH, &quiet)
        }
        let line = readLine(strippingNewline: true)
        if hasTerminal { _ = tcsetattr(0, TCSAFLUSH, &saved) }
        Log.write("\n")
        return line
    }

    /// Serves the console until it is ended (SIGTERM, SIGINT).
    static func serve(_ options: ConsoleOptions) -> Int32 {
        // The booth's parser, for the booth's options: the same table, the same files, the same checks.
        let parser = BoothParser.make(environment: KioskEnvironment(ProcessInfo.processInfo.environment),
                                      overlays: OverlayFiles(load: OverlayImage.loadKept))
        let socket: String
        let shelf: ConsoleTakes?
        let disk: (folder: String, keepFree: Int64, share: String?)
        let film: ConsoleFilm
        do throws(UsageError) {
            guard case let .record(configuration) = try parser.parse(options.boothArguments, together: false),
                  let path = configuration.service.controlSocket else {
                throw UsageError("console needs the booth's control socket: control-socket in its --config file, or --control-socket PATH")
            }
            socket = path
            shelf = configuration.storage.outputDirectory.map { ConsoleTakes(folder: $0, template: configuration.storage.nameTemplate) }
            // The Status page's disk, share site and machine (ConsoleFigures).
            let output = configuration.storage.outputDirectory ?? configuration.storage.output.map { PathText.folder(of: $0) } ?? "/tmp"
            disk = (output.isEmpty ? "." : output, configuration.limits.minFreeDisk,
                    configuration.share.folder == nil ? nil : configuration.share.urlTemplate)
            // The hosts' film: this program's `reel` of the same folder, its date in the booth's language.
            film = ConsoleFilm(executable: Assets.executablePath(), takes: configuration.storage.outputDirectory, output: options.filmFile,
                               options: ["--language", configuration.screen.language.rawValue])
        } catch {
            Log.write("kiosk-recorder: \(Log.escaped(error.message))\nTry 'kiosk-recorder help console'.\n")
            return 2
        }
        let listener: ConsoleListener
        var overUnixSocket = false
        switch options.listen {
        case let .unix(path):
            listener = .unix(path)
            overUnixSocket = true
        case let .tcp(host, port): listener = .tcp(host: host, port: port)
        }
        let live = ConsoleLive(socket: socket, shelf: shelf)
        let booth: @Sendable (BoothQuestion) -> BoothReply = { question in ask(question, socket: socket) }
        let figures = ConsoleFigures(folder: disk.folder, keepFree: disk.keepFree, shareTemplate: disk.share,
                                     thermalFolder: KioskEnvironment(ProcessInfo.processInfo.environment).thermalFolder, booth: booth)
        let settings = ConsoleSettingsFiles(settings: ConsoleSettings(parser: parser, arguments: options.boothArguments), booth: booth)
        let stateFolder = options.auditLog.lastIndex(of: "/").map { String(options.auditLog[..<$0]) } ?? "."
        let devices = ConsoleDevicesFiles(socket: socket, screenFolder: stateFolder + "/console-screen", hasTakeFolder: shelf != nil, booth: booth)
        let pages = ConsolePages.read(options.pages ?? pageFolder())
        if !pages.missing.isEmpty {
            Log.info("console: no \(pages.missing.joined(separator: ", ")) in \(pages.folder): the console answers 404 for them (nginx serves the installed page; --pages DIR names another folder)")
        }
        let server = ConsoleServer(passwordFile: options.passwordFile, auditLog: options.auditLog, overUnixSocket: overUnixSocket,
                                   pages: pages, live: live, settings: settings, booth: booth, machine: carryOut,
                                   figures: figures.answer, pairingFile: PairingFile.path(controlSocket: socket), film: film, devices: devices)
        do throws(ConsoleError) {
            try live.start()
            let listening = try ConsoleServer.listen(listener)
            let address = listening.address
            try server.start(listening)
            Log.info("console: listening on \(address), the booth's control socket \(socket)")
        } catch {
            Log.write("kiosk-recorder: console: --listen: \(error)\n")
            return 1
        }
        do throws(SystemError) { try figures.start() } catch { Log.info("console: the share site is not probed: \(error)") }
        if access(options.passwordFile, R_OK) != 0 {
            Log.info("console: no password in \(options.passwordFile) yet: kiosk-recorder console password --password-file \(options.passwordFile)")
        }
        // The daemon's threads serve; this one waits for the signal that ends the process.
        while true { pause() }
    }

    /// The page's files, as the assets are found: installed beside the executable
    /// (`<prefix>/share/kiosk-recorder/console`), else a checkout's `kiosk/console` in a folder above it
    /// (`.build/release/kiosk-recorder` finds its own); the installed place when neither has them.
    static func pageFolder() -> String {
        let folder = URL(fileURLWithPath: Assets.executablePath()).deletingLastPathComponent().standardizedFileURL
        let installed = folder.appendingPathComponent("../share/kiosk-recorder/console").standardizedFileURL.path
        var candidates = [installed]
        var dir = folder
        while dir.path != "/" {
            candidates.append(dir.appendingPathComponent("kiosk/console").path)
            dir = dir.deletingLastPathComponent()
        }
        return candidates.first { access($0 + "/index.html", R_OK) == 0 } ?? installed
    }

    /// `action` asked of logind or systemd on the system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else the
    /// machine's): nil once taken, else the bus's error.
    static func carryOut(_ action: MachineAction) -> String? {
        do throws(BusError) {
            switch action {
            case .poweroff: try SystemPower.powerOff()
            case .reboot: try SystemPower.reboot()
            case .restart: try SystemPower.restart()
            }
            Log.info("console: \(action.rawValue) asked of \(action == .restart ? "systemd (\(SystemPower.boothUnit))" : "logind")")
            return nil
        } catch {
            Log.info("console: \(action.rawValue) refused: \(error)")
            return error.description
        }
    }

    /// `question` put to the booth at `socket`, a fresh connection each time: a booth that is not
    /// there yet, or came back, is found on the next request.
    static func ask(_ question: BoothQuestion, socket: String) -> BoothReply {
        let request: SendRequest
        do throws(UsageError) {
            switch question {
            case .state: request = try SendRequest("state")
            case let .command(body):
                guard body.trimmingWhitespace.hasPrefix("{") else { throw UsageError("the body is a JSON command line, e.g. {\"command\":\"start\"}") }
                request = try SendRequest(body)
            }
        } catch {
            let message = error.message.hasPrefix("--send: ") ? String(error.message.dropFirst(8)) : error.message
            return .badCommand(message)
        }
        var lines: [String] = []
        switch ControlSender.exchange(request, socket: socket, line: { lines.append($0) }) {
        case .answered: return .answered(lines: lines)
        case let .refused(code, message): return .refused(lines: lines, code: code, message: message)
        case let .unreachable(error):
            return .unreachable("no booth answers at \(socket): \(error)\(String(ControlSender.hint(error.errno, socket).map { $0 == "\n" ? " " : $0 }))")
        case let .notTaken(error): return .noAnswer(lines: lines, why: "the booth closed the connection before taking the command: \(error)")
        case .closed:
            return request.answeredByClosing ? .answered(lines: lines)
                : .noAnswer(lines: lines, why: "the booth closed the connection before answering")
        case .timedOut: return .noAnswer(lines: lines, why: "no answer within \(Int(SendRequest.answerTimeout)) s")
        }
    }
}
