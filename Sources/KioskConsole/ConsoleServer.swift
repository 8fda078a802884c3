// The console's HTTP, from GNU libmicrohttpd: a daemon on a socket bound here (TCP, or the Unix
// socket nginx proxies to), a thread per connection. This glue only carries each request to the
// rules (ConsoleRules) and their answer back; the booth is asked through `booth`, outside the
// rules' lock, so a slow booth holds up only the request that asked it.
import CMicroHTTPD
import FoundationEssentials
import Glibc
import KioskPassword
import KioskSystem

/// A question for the booth, carried over its control socket.
public enum BoothQuestion: Sendable, Equatable {
    case state
    /// A body as the control socket takes it.
    case command(String)
}

/// A call that failed while the console starts, with its errno.
public struct ConsoleError: Error, Sendable, CustomStringConvertible {
    public let call: String
    public let errno: Int32
    init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }
    init(_ error: SystemError) { self.init(call: error.call, errno: error.errno) }
    public var description: String { "\(call): \(String(cString: strerror(errno)))" }
}

/// Where the console listens.
public enum ConsoleListener: Sendable, Equatable {
    case unix(String)
    case tcp(host: String, port: UInt16)
}

/// A running console: its rules behind one lock, its password file, its audit log.
public final class ConsoleServer: Sendable {
    private let rules: Locked<ConsoleRules>
    private let passwordFile: String
    private let audit: AuditLog
    private let booth: @Sendable (BoothQuestion) -> BoothReply
    private let settings: any ConsoleSettingsStore
    /// Carries out a machine action: nil once it was taken, else why not.
    private let machine: @Sendable (MachineAction) -> String?
    private let overUnixSocket: Bool
    private let live: ConsoleLive
    /// The Status page's figures beyond `state` (`GET api/figures`), gathered on the request's thread.
    private let figures: @Sendable () -> ConsoleResponse
    /// The booth's pairing code's file (PairingFile, beside its control socket); nil: no pairing.
    private let pairingFile: String?
    /// The hosts' film (nil: none is made here).
    private let film: ConsoleFilm?
    private let devices: (any ConsoleDevicesStore)?

    public init(passwordFile: String, auditLog: String, overUnixSocket: Bool, pages: ConsolePages, live: ConsoleLive,
                settings: any ConsoleSettingsStore, booth: @escaping @Sendable (BoothQuestion) -> BoothReply,
                machine: @escaping @Sendable (MachineAction) -> String? = { _ in "not available here" },
                figures: @escaping @Sendable () -> ConsoleResponse = { .error(404, "notFound", "no such page") },
                pairingFile: String? = nil, film: ConsoleFilm? = nil,
                devices: (any ConsoleDevicesStore)? = nil) {
        self.figures = figures
        rules = Locked(ConsoleRules(pages: pages))
        self.pairingFile = pairingFile
        self.devices = devices
        self.live = live
        self.film = film
        self.passwordFile = passwordFile
        audit = AuditLog(path: auditLog)
        self.overUnixSocket = overUnixSocket
        self.settings = settings
        self.booth = booth
        self.machine = machine
    }

    /// Starts the daemon on `listening` (a listening socket, which the daemon then owns).
    public func start(_ listening: consuming Listening) throws(ConsoleError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let fd = listening.socket.take()
        guard let started = kiosk_mhd_start(fd, ConsoleServer.access, ConsoleServer.completed, context) else {
            _ = FileDescriptor(owning: fd)
            throw ConsoleError(call: "MHD_start_daemon", errno: EINVAL)
        }
        // Never stopped: the console serves until the process is ended.
        _ = started
    }

    /// One request as it is being read: on its connection's thread only, from the first call to
    /// the completed callback.
    private final class Pending {
        var request: ConsoleRequest
        let limit: Int
        var tooLarge = false
        init(_ request: ConsoleRequest, limit: Int) {
            self.request = request
            self.limit = limit
        }
    }

    /// libmicrohttpd's access handler: called once with the headers, then with each piece of the
    /// body, then once more with none, when the request is answered.
    private static let access: MHD_AccessHandlerCallback = { context, connection, url, method, _, data, size, state in
        guard let context, let state, let size else { return kiosk_mhd_no }
        let server = Unmanaged<ConsoleServer>.fromOpaque(context).takeUnretainedValue()
        guard let pointer = state.pointee else {
            let request = server.headers(connection, path: url.map { String(cString: $0) } ?? "", method: method.map { String(cString: $0) } ?? "")
            let limit = ConsoleRules.bodyLimit(path: request.path)
            // Too big by its own word: refused before any of it is read.
            if let length = request.headers["content-length"].flatMap(Int.init), length > limit {
                return queue(tooLarge(limit), on: connection)
            }
            state.pointee = Unmanaged.passRetained(Pending(request, limit: limit)).toOpaque()
            return kiosk_mhd_yes
        }
        let pending = Unmanaged<Pending>.fromOpaque(pointer).takeUnretainedValue()
        if size.pointee > 0 {
            if pending.request.body.count + size.pointee > pending.limit {
                pending.tooLarge = true
            } else if let data {
                pending.request.body += UnsafeRawBufferPointer(start: data, count: size.pointee)
            }
            size.pointee = 0
            return kiosk_mhd_yes
        }
        if pending.tooLarge { return queue(tooLarge(pending.limit), on: connection) }
        return server.reply(pending.request, on: connection)
    }

    private static let completed: MHD_RequestCompletedCallback = { _, _, state, _ in
        guard let state, let pointer = state.pointee else { return }
        Unmanaged<Pending>.fromOpaque(pointer).release()
        state.pointee = nil
    }

    private static func tooLarge(_ limit: Int) -> ConsoleResponse {
        .error(413, "tooLarge", "the body may have at most \(limit) bytes")
    }

    /// The request's headers the rules read, and its peer.
    private func headers(_ connection: OpaquePointer?, path: String, method: String) -> ConsoleRequest {
        var headers: [String: String] = [:]
        for name in ["Host", "Origin", "Referer", "Cookie", "X-CSRF-Token", "X-Real-IP", "Content-Type", "Content-Length", "Range"] {
            if let value = kiosk_mhd_header(connection, name) {
                headers[name.lowercased()] = String(cString: value)
            }
        }
        var text = [CChar](repeating: 0, count: 64)
        let peer = kiosk_mhd_client_address(connection, &text, socklen_t(text.count)) == 0
            ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return ConsoleRequest(method: method, path: path, headers: headers, peer: peer, overUnixSocket: overUnixSocket)
    }

    /// The rules' answer to `request` queued on `connection`: the live part's (a stream, a file), or `answer`'s.
    private func reply(_ request: ConsoleRequest, on connection: OpaquePointer?) -> MHD_Result {
        let password = StoredPassword(file: passwordFile)
        let now = Date().timeIntervalSince1970
        if request.path.hasPrefix(ConsoleRules.pairPrefix) {
            // Pairing: the booth's code read as the request comes, spent at most once.
            let ticket = pairingFile.flatMap(PairingFile.read)
            let (decision, spent) = rules.withLock { $0.pair(request, ticket: ticket, monotonic: MonotonicClock.now(), now: now, token: Self.newToken) }
            if spent, let pairingFile { PairingFile.remove(pairingFile) }
            return Self.queue(answer(decision), on: connection)
        }
        let decision = rules.withLock { rules in
            rules.decide(request, now: now, password: password, token: Self.newToken)
        }
        if case let .live(asked) = decision { return live.reply(asked, request, on: connection, audit: audit) }
        if case let .film(asked) = decision {
            guard let film else { return Self.queue(ConsoleRules.notFound, on: connection) }
            return film.reply(asked, request, on: connection, audit: audit)
        }
        return Self.queue(answer(decision), on: connection)
    }

    /// The answer to `decision`, asking the booth or reading the log when it says so.
    func answer(_ decision: ConsoleDecision) -> ConsoleResponse {
        switch decision {
        case .live, .film: return ConsoleRules.notFound
        case let .answer(response, entry):
            if let entry { audit.append(entry) }
            return response
        case .state:
            return ConsoleRules.stateAnswer(booth(.state))
        case .figures:
            return figures()
        case let .command(body, address):
            let (response, result) = ConsoleRules.commandAnswer(booth(.command(body)))
            audit.append(AuditEntry(time: Date().timeIntervalSince1970, address: address, action: "command " + Self.commandName(body), result: result))
            return response
        case .audit:
            return ConsoleRules.auditAnswer(audit.lines())
        case .settings:
            return settings.listing()
        case let .saveSettings(body, address):
            let (response, result) = settings.save(body)
            audit.append(AuditEntry(time: Date().timeIntervalSince1970, address: address, action: "settings", result: result))
            return response
        case let .upload(file, body, address):
            let (response, result) = settings.upload(file, body)
            audit.append(AuditEntry(time: Date().timeIntervalSince1970, address: address, action: "upload " + file.rawValue, result: result))
            return response
        case let .machine(action, address):
            // Logged before it is carried out: a power off may not leave time to log after.
            audit.append(AuditEntry(time: Date().timeIntervalSince1970, address: address, action: action.auditName, result: "asked"))
            let (response, result) = ConsoleRules.machineAnswer(action, failure: machine(action))
            audit.append(AuditEntry(time: Date().timeIntervalSince1970, address: address, action: action.auditName, result: result))
            return response
        case let .guestDelete(asked):
            let (response, result) = ConsoleRules.guestAnswer(live.deleteForGuest(asked.token), language: asked.language)
            audit.append(AuditEntry(time: Date().timeIntervalSince1970, address: asked.address, action: "guestDelete", result: result))
            return response
        case .consentCSV:
            return live.consentCSV()
        case let .devices(request):
            guard let devices else { return .error(404, "noDevices", "this console has no Devices page") }
            let (response, result) = devices.answer(request)
            if case let .trial(address) = request, let result {
                audit.append(AuditEntry(time: Date().timeIntervalSince1970, address: address, action: "trial", result: result))
            }
            return response
        }
    }

    /// The command's name for the log (`start`), or `?`.
    static func commandName(_ body: String) -> String {
        let name = JSONText.stringField("command", in: Array(body.utf8)) ?? "?"
        return String(name.prefix(64))
    }

    /// A session or CSRF token: 256 bits from getrandom.
    private static func newToken() -> String {
        do { return try ShareToken.make(bytes: 32) } catch { noRandom() }
    }

    /// getrandom failing after boot is no state to go on in: the console stops.
    private static func noRandom() -> Never {
        Log.write("kiosk-recorder: console: getrandom failed; no session can be made safely\n")
        exit(1)
    }

    /// `response`, queued on `connection`.
    static func queue(_ response: ConsoleResponse, on connection: OpaquePointer?) -> MHD_Result {
        let made = response.body.withUnsafeBytes { bytes in
            kiosk_mhd_response_copy(bytes.count, bytes.baseAddress)
        }
        guard let made else { return kiosk_mhd_no }
        return queue(made, status: response.status, headers: response.headers, on: connection)
    }

    /// The response `made` with `headers`, queued on `connection` with `status` (and let go: MHD keeps it while it is sent).
    static func queue(_ made: OpaquePointer, status: Int, headers: [String: String], on connection: OpaquePointer?) -> MHD_Result {
        defer { MHD_destroy_response(made) }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { _ = MHD_add_response_header(made, name, value) }
        return MHD_queue_response(connection, UInt32(status), made)
    }

    // MARK: - Listening

    /// A listening socket for `listener`; a Unix socket's node is made 0660, replacing one left by
    /// a process that ended. Its address as text (a TCP port 0 becomes the one the kernel chose).
    public static func listen(_ listener: ConsoleListener) throws(ConsoleError) -> Listening {
        switch listener {
        case let .unix(path): return Listening(socket: try listenUnix(path), address: "unix:" + path)
        case let .tcp(host, port): return try listenTCP(host: host, port: port)
        }
    }

    /// A listening socket and its address as text.
    public struct Listening: ~Copyable {
        public var socket: FileDescriptor
        public let address: String
    }

    /// A new socket, close-on-exec.
    private static func socket(_ domain: Int32, _ type: Int32, call: String) throws(ConsoleError) -> FileDescriptor {
        do { return try FileDescriptor.socket(domain, type, call: call) } catch { throw ConsoleError(error) }
    }

    private static func listenUnix(_ path: String) throws(ConsoleError) -> FileDescriptor {
        let fd = try socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), call: "socket(AF_UNIX)")
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw ConsoleError(call: "bind(\(path))", errno: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes + [0]) }
        var st = stat()
        if lstat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFSOCK else { throw ConsoleError(call: "bind(\(path)): something else is there", errno: EEXIST) }
            // Left by a console that ended (nobody answers): replaced.
            let probe = try socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), call: "socket(AF_UNIX)")
            let answered = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard answered != 0 else { throw ConsoleError(call: "bind(\(path)): another program listens there", errno: EADDRINUSE) }
            unlink(path)
        }
        _ = fchmod(fd.rawValue, 0o660)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw ConsoleError(call: "bind(\(path))", errno: errno) }
        guard chmod(path, 0o660) == 0 else { throw ConsoleError(call: "chmod(\(path))", errno: errno) }
        guard Glibc.listen(fd.rawValue, 64) == 0 else { throw ConsoleError(call: "listen(\(path))", errno: errno) }
        return fd
    }

    private static func listenTCP(host: String, port: UInt16) throws(ConsoleError) -> Listening {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let first = found else { throw ConsoleError(call: "getaddrinfo(\(host))", errno: EINVAL) }
        defer { freeaddrinfo(found) }
        let info = first.pointee
        let fd = try socket(info.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), call: "socket")
        var on: Int32 = 1
        setsockopt(fd.rawValue, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd.rawValue, info.ai_addr, info.ai_addrlen) == 0 else { throw ConsoleError(call: "bind(\(host):\(port))", errno: errno) }
        guard Glibc.listen(fd.rawValue, 64) == 0 else { throw ConsoleError(call: "listen(\(host):\(port))", errno: errno) }
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd.rawValue, $0, &length) } }
        let actual = withUnsafePointer(to: &bound) { pointer -> UInt16 in
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
        let shown = host.contains(":") ? "[\(host)]" : host
        return Listening(socket: fd, address: "\(shown):\(actual)")
    }
}
