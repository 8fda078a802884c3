// The control socket (`--control-socket`): a Unix stream socket where several clients send command
// lines and each receives every event line. One thread serves them all with poll() over the
// listening socket, the clients and a wake pipe. Lines to send wait in a bounded queue per client,
// filled by whichever thread emits (it never waits on a socket); a client that stops reading is
// dropped once its queue passes the bound, like mpv's IPC clients. What a client's bytes mean is
// the owner's business: the server hands them to a reader made for each client.
import CLinux
import Glibc
import Synchronization

/// Why the control socket could not be opened at launch (the booth exits 2 with this message).
public enum ControlSocketError: Error, CustomStringConvertible, Sendable {
    /// Something that is not a socket is at the path: it is never replaced.
    case notASocket(path: String, what: String)
    /// A live process listens there: a booth (it holds the lock beside the socket) or another program.
    case inUse(path: String, pid: Int32?, byBooth: Bool)
    /// The folder the socket would go in is not there.
    case noFolder(String)
    case failed(SystemError)

    public var description: String {
        switch self {
        case let .notASocket(path, what):
            "'\(path)' exists and is \(what), not a socket; it is not replaced: remove it or name another path"
        case let .inUse(path, pid, byBooth):
            "another \(byBooth ? "kiosk-recorder" : "program")\(pid.map { " (pid \($0))" } ?? "") listens on \(path)"
        case let .noFolder(folder):
            "the folder \(folder) does not exist"
        case let .failed(error):
            "\(error)"
        }
    }
}

/// A listening control socket and, once started, the thread that serves its clients.
///
/// The node is created fresh with mode 0660 (the owner and the group may connect). A socket left by
/// a booth that died is replaced; anything else at the path is refused. A lock file beside it
/// (`.<name>.lock`, as `OutputLock` makes) keeps two booths from both replacing the same stale
/// socket. The node is removed by `close`, or at exit.
public final class ControlServer: Sendable {
    public let path: String
    /// Bytes that may wait for one client (past what the kernel's socket buffer holds) before it
    /// is dropped as a client that stopped reading.
    public let queueLimit: Int
    /// Clients served at once; one more takes the place of the one silent longest (`accept`).
    public static let maxClients = 32
    /// How long a client must have sent nothing to be dropped for a new one when the socket is full
    /// (ns): long enough that a client about to send its command keeps its place.
    static let idleBeforeDrop: Int64 = 2_000_000_000
    public static let mode: mode_t = 0o660

    /// Turns a client's bytes into whatever they mean; called on the serving thread only, in order.
    public typealias ClientReader = (ArraySlice<UInt8>) -> Void

    /// The listening socket, until `close` closes it (the serving thread has ended by then).
    private let listener: Locked<FileDescriptor?>
    /// The node bind made: removed only if it is still this one.
    private let node: UnixSocket.Node
    /// Held for as long as the server lives: one booth per socket.
    private let lock: OutputLock
    private let log: @Sendable (String) -> Void
    private let wake: WakePipe
    private let outgoing = Locked(Outgoing())
    private let thread = Locked<WorkerThread?>(nil)
    private let closed = Atomic<Bool>(false)
    /// How long the serving thread may go on writing what is queued once stopped (nanoseconds).
    private let drainNanoseconds = Atomic<Int64>(0)

    /// The lines waiting for one client. The serving thread takes them all at once into the
    /// client's own batch; `bytes` counts them until they are written.
    private struct Queue {
        var lines: [[UInt8]] = []
        var bytes = 0
        /// Passed the limit: emptied, and the client is dropped by the serving thread.
        var overflowed = false
    }

    private struct Outgoing {
        var queues: [Int: Queue] = [:]
        /// A wake-up is in the pipe and not yet taken: later lines need not write another.
        var wakePending = false
    }

    /// Opens the socket at `path` and listens (clients may connect; they are served once `start`
    /// is called). `log` takes the lines for people (stderr): dropped and refused clients.
    public init(path: String, queueLimit: Int = 1 << 20, log: @escaping @Sendable (String) -> Void) throws(ControlSocketError) {
        self.path = path
        self.queueLimit = queueLimit
        self.log = log
        let folder = path.lastIndex(of: "/").map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        var st = stat()
        guard stat(folder, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else { throw .noFolder(folder) }
        // Anything but a socket is refused before the lock file is made (and again under it).
        _ = try Self.existingSocket(at: path)
        do { lock = try OutputLock(beside: path) } catch {
            switch error {
            case let .held(pid): throw .inUse(path: path, pid: pid, byBooth: true)
            case let .failed(error): throw .failed(error)
            }
        }
        try Self.clear(path)
        let listening: Listening
        do {
            wake = try WakePipe()
            listening = try Self.listen(at: path)
        } catch {
            throw .failed(error)
        }
        node = listening.node
        listener = Locked(listening.socket)
        Self.removeAtExit(path, node)
    }

    deinit { close(flushWithin: 0) }

    /// Makes room at `path`: nothing there, or a socket nobody listens on (removed). A socket a
    /// process answers on, or anything that is not a socket, is refused.
    private static func clear(_ path: String) throws(ControlSocketError) {
        guard try existingSocket(at: path) else { return }
        let probe: FileDescriptor
        do { probe = try UnixSocket.make(nonBlocking: true) } catch { throw .failed(error) }
        switch UnixSocket.connect(probe.rawValue, to: path) {
        case 0: throw .inUse(path: path, pid: UnixSocket.peerPID(probe.rawValue), byBooth: false)
        // A listener whose backlog is full is alive all the same.
        case EAGAIN: throw .inUse(path: path, pid: nil, byBooth: false)
        case ECONNREFUSED:
            // Left by a process that died: replaced.
            guard unlink(path) == 0 || errno == ENOENT else { throw .failed(SystemError(call: "unlink(\(path))", errno: errno)) }
        case let error:
            throw .failed(SystemError(call: "connect(\(path))", errno: error))
        }
    }

    /// Whether a socket is at `path` (false: nothing is); anything else there is refused.
    private static func existingSocket(at path: String) throws(ControlSocketError) -> Bool {
        let existing: UnixSocket.Node?
        do { existing = try UnixSocket.node(at: path) } catch { throw .failed(error) }
        guard let existing else { return false }
        guard existing.isSocket else { throw .notASocket(path: path, what: describe(existing.type)) }
        return true
    }

    /// A listening socket and the node bind made for it.
    private struct Listening: ~Copyable {
        var socket: FileDescriptor
        let node: UnixSocket.Node
    }

    /// A new socket bound at `path` with mode 0660, listening, non-blocking; its node.
    private static func listen(at path: String) throws(SystemError) -> Listening {
        let fd = try UnixSocket.make(nonBlocking: true)
        let node: UnixSocket.Node
        do throws(SystemError) {
            // Never wider than 0660, not even before the chmod below: Linux gives the node that
            // bind makes the socket's own mode, less the umask.
            _ = fchmod(fd.rawValue, mode)
            try UnixSocket.bind(fd.rawValue, to: path)
            // Exactly 0660 whatever the umask took away.
            guard chmod(path, mode) == 0 else { throw SystemError(call: "chmod(\(path))", errno: errno) }
            guard Glibc.listen(fd.rawValue, 16) == 0 else { throw SystemError(call: "listen(\(path))", errno: errno) }
            guard let made = try UnixSocket.node(at: path) else { throw SystemError(call: "lstat(\(path))", errno: ENOENT) }
            node = made
        } catch {
            // Closed before the node goes, as a failed bind leaves nothing listening there.
            _ = consume fd
            if let made = try? UnixSocket.node(at: path), made.isSocket { unlink(path) }
            throw error
        }
        return Listening(socket: fd, node: node)
    }

    private static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a folder"
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO"
        case S_IFCHR, S_IFBLK: "a device"
        default: "something else"
        }
    }

    // MARK: - Serving

    /// Starts the serving thread: each client accepted gets a reader from `newClient`, which its
    /// bytes go to. Call once.
    public func start(_ newClient: @escaping @Sendable () -> ClientReader) throws(SystemError) {
        let worker = try WorkerThread(name: "kiosk-control") { [self] thread in serve(thread, newClient) }
        thread.withLock { $0 = worker }
    }

    /// Queues `line` for every client (never waits). A client whose queue would pass `queueLimit`
    /// is marked to be dropped instead.
    public func broadcast(_ line: some Collection<UInt8>) {
        let bytes = Array(line)
        let wakeNow = outgoing.withLock { o -> Bool in
            guard !o.queues.isEmpty else { return false }
            for index in o.queues.values.indices where !o.queues.values[index].overflowed {
                if o.queues.values[index].bytes + bytes.count > queueLimit {
                    o.queues.values[index] = Queue(overflowed: true)
                } else {
                    o.queues.values[index].lines.append(bytes)
                    o.queues.values[index].bytes += bytes.count
                }
            }
            defer { o.wakePending = true }
            return !o.wakePending
        }
        if wakeNow { wake.wake() }
    }

    /// The clients being served now.
    public var clientCount: Int { outgoing.withLock { $0.queues.count } }

    /// Stops serving: no more reading or accepting; what is queued goes out for up to `seconds`
    /// (a client that does not read is not waited for longer), then every connection closes and
    /// the socket's node is removed. Later calls do nothing.
    public func close(flushWithin seconds: Double = 1) {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if let worker = thread.withLock({ $0.take() }) {
            drainNanoseconds.store(Int64(max(seconds, 0) * 1e9), ordering: .releasing)
            worker.stop()
        }
        listener.withLock { $0 = nil }
        Self.remove(path, node)
    }

    /// Why a client goes.
    private enum Leaving {
        /// Its end closed, or the connection broke (the reason).
        case closed(String?)
        /// Its queue passed the limit.
        case stoppedReading
    }

    /// One accepted connection, on the serving thread only.
    private final class Client {
        let id: Int
        /// The connection, until the server closes it (`disconnect(_:)`): at once when the client goes,
        /// not when the last reference to this object does.
        private var socket: FileDescriptor?
        let pid: Int32?
        let reader: ClientReader
        /// When it last sent something (or connected), monotonic ns: the one silent longest makes
        /// room when the socket is full.
        var lastHeard = MonotonicClock.now()
        /// The lines taken from its queue, being written from `offset` on.
        var batch: [UInt8] = []
        var offset = 0
        var leaving: Leaving?

        init(id: Int, socket: consuming FileDescriptor, reader: @escaping ClientReader) {
            self.id = id
            pid = UnixSocket.peerPID(socket.rawValue)
            self.socket = consume socket
            self.reader = reader
        }

        /// The connection's number for poll, send and recv; -1 once closed (poll skips it).
        var fd: Int32 {
            switch socket {
            case let .some(socket): socket.rawValue
            case .none: -1
            }
        }

        /// Closes the connection (the client reads the end of the stream).
        func closeSocket() { socket = nil }

        var name: String { "client \(id)" + (pid.map { " (pid \($0))" } ?? "") }
        var writing: Bool { offset < batch.count }
    }

    private func serve(_ thread: WorkerThread, _ newClient: @Sendable () -> ClientReader) {
        var clients: [Client] = []
        var nextID = 1
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        // Open until `close`, which closes it only once this thread has ended.
        let listenFD = listener.withLock { socket -> Int32 in
            switch socket {
            case let .some(socket): socket.rawValue
            case .none: -1
            }
        }
        while !thread.isStopping {
            let queued = queuedClients()
            var fds = [pollfd(fd: thread.wakeFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)]
            for client in clients {
                let out = client.writing || queued.contains(client.id) ? Int16(POLLOUT) : 0
                fds.append(pollfd(fd: client.fd, events: Int16(POLLIN) | out, revents: 0))
            }
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                if errno != EINTR {
                    log("control socket: poll: \(String(cString: strerror(errno)))")
                    thread.wait(milliseconds: 100)
                }
                continue
            }
            if thread.isStopping { break }
            if fds[1].revents != 0 {
                // Emptied before the flag is lowered: a line queued in between goes out below, and
                // one queued after writes a new wake-up.
                wake.drain()
                outgoing.withLock { $0.wakePending = false }
            }
            // What each client sent: one read each per turn, so one busy client cannot starve the rest.
            for (client, p) in zip(clients, fds.dropFirst(3)) where p.revents != 0 {
                switch UnixSocket.receive(client.fd, into: &buffer) {
                case let .bytes(n):
                    client.lastHeard = MonotonicClock.now()
                    client.reader(buffer[0..<n])
                case .wouldBlock: break
                case .end: client.leaving = .closed(nil)
                case let .failed(error): client.leaving = .closed(String(cString: strerror(error)))
                }
            }
            if fds[2].revents != 0 {
                accept(listenFD, into: &clients, nextID: &nextID, newClient)
            }
            for client in clients where client.leaving == nil {
                client.leaving = write(client)
            }
            clients.removeAll { client in
                guard let leaving = client.leaving else { return false }
                if case .stoppedReading = leaving {
                    let limit = queueLimit >= 1 << 20 ? "\(queueLimit >> 20) MiB" : "\(queueLimit >> 10) KiB"
                    log("control socket: \(client.name) did not read: more than \(limit) of events waited for it; dropped")
                }
                disconnect(client)
                return true
            }
        }
        drain(clients)
    }

    /// The clients with lines in their queue.
    private func queuedClients() -> Set<Int> {
        outgoing.withLock { o in Set(o.queues.compactMap { $0.value.lines.isEmpty ? nil : $0.key }) }
    }

    /// Takes every waiting connection. With `maxClients` already, the client silent longest (one
    /// that sent nothing for `idleBeforeDrop` at least) is dropped to make room, so idle clients
    /// cannot lock everyone out; when every client spoke lately, the new one is refused.
    private func accept(_ listenFD: Int32, into clients: inout [Client], nextID: inout Int, _ newClient: @Sendable () -> ClientReader) {
        while true {
            let accepted: FileDescriptor?
            do { accepted = try UnixSocket.accept(listenFD) } catch {
                // EMFILE and the like: the connection stays in the backlog; try again shortly.
                log("control socket: \(error)")
                return
            }
            guard let fd = accepted else { return }
            if clients.count >= Self.maxClients {
                let now = MonotonicClock.now()
                let quietest = clients.filter { $0.leaving == nil }.min { $0.lastHeard < $1.lastHeard }
                guard let quietest, now - quietest.lastHeard >= Self.idleBeforeDrop else {
                    log("control socket: \(Self.maxClients) clients, all heard from lately; refused one\(UnixSocket.peerPID(fd.rawValue).map { " (pid \($0))" } ?? "")")
                    _ = consume fd
                    continue
                }
                log("control socket: \(Self.maxClients) clients already; dropped \(quietest.name), silent for "
                    + "\((now - quietest.lastHeard) / 1_000_000_000) s, to make room for a new one")
                disconnect(quietest)
                clients.removeAll { $0 === quietest }
            }
            let client = Client(id: nextID, socket: fd, reader: newClient())
            nextID += 1
            clients.append(client)
            outgoing.withLock { $0.queues[client.id] = Queue() }
        }
    }

    /// Writes what `client` has, taking its queue's lines as one batch whenever the last batch is
    /// out, until the socket's buffer is full or nothing is left; why it must go, if it must.
    private func write(_ client: Client) -> Leaving? {
        while true {
            if !client.writing {
                let lines = outgoing.withLock { o -> [[UInt8]]? in
                    guard o.queues[client.id]?.overflowed == false else { return nil }
                    defer { o.queues[client.id]?.lines.removeAll() }
                    return o.queues[client.id]?.lines
                }
                guard let lines else { return .stoppedReading }
                guard !lines.isEmpty else { return nil }
                client.batch = Array(lines.joined())
                client.offset = 0
            }
            let sent = client.batch.withUnsafeBytes {
                UnixSocket.send(client.fd, UnsafeRawBufferPointer(rebasing: $0[client.offset...]), wait: false)
            }
            switch sent {
            case let .bytes(n):
                client.offset += n
                outgoing.withLock { $0.queues[client.id]?.bytes -= n }
            case .wouldBlock:
                // A client that stopped reading is found by its queue passing the limit.
                return outgoing.withLock { $0.queues[client.id]?.overflowed == false } ? nil : .stoppedReading
            case let .failed(error):
                return .closed(String(cString: strerror(error)))
            }
        }
    }

    /// Closes `client`'s connection and forgets its queue.
    private func disconnect(_ client: Client) {
        client.closeSocket()
        outgoing.withLock { _ = $0.queues.removeValue(forKey: client.id) }
    }

    /// On the way out: what is queued goes out while the clients read, up to the drain time; then
    /// every connection closes.
    private func drain(_ clients: [Client]) {
        let deadline = MonotonicClock.now() + drainNanoseconds.load(ordering: .acquiring)
        var open = clients
        while true {
            let queued = queuedClients()
            open.removeAll { client in
                if client.leaving == nil { client.leaving = write(client) }
                guard client.leaving != nil || !(client.writing || queued.contains(client.id)) else { return false }
                disconnect(client)
                return true
            }
            let remaining = deadline - MonotonicClock.now()
            guard !open.isEmpty, remaining > 0 else { break }
            var fds = open.map { pollfd(fd: $0.fd, events: Int16(POLLOUT), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), Int32(clamping: (remaining + 999_999) / 1_000_000))
        }
        open.forEach(disconnect)
    }

    // MARK: - The node's removal

    /// The nodes this process made and has not removed yet: removed at exit, however main leaves.
    private static let nodes = Locked<[String: UnixSocket.Node]>([:])
    private static let registerExitRemoval: Void = { atexit { ControlServer.removeAll() } }()

    private static func removeAtExit(_ path: String, _ node: UnixSocket.Node) {
        registerExitRemoval
        nodes.withLock { $0[path] = node }
    }

    /// Removes the node at `path` if it is still the one this process made.
    private static func remove(_ path: String, _ node: UnixSocket.Node) {
        guard nodes.withLock({ $0.removeValue(forKey: path) }) != nil else { return }
        if (try? UnixSocket.node(at: path)) == node { unlink(path) }
    }

    private static func removeAll() {
        for (path, node) in nodes.withLock({ $0 }) { remove(path, node) }
    }
}
