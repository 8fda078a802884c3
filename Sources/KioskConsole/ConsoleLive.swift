// The console's live part: one subscription to the booth's events, held by the console (a thread
// reading the control socket, trying again every second while no booth answers), fanned out to
// every browser's bounded queue and kept for the Log page; the takes, read through the shelf the
// executable hands in, changed only through the booth's commands; a take's files, streamed from
// their descriptors. The booth sees one more socket client, whichever number of browsers watch.
import CMicroHTTPD
import Dispatch
import FoundationEssentials
import Glibc
import KioskSystem

/// One take as the console lists it (`GET api/takes`).
public struct ConsoleTake: Sendable, Equatable, Encodable {
    public var name: String
    /// The folder's counter: its order, whatever the clock said.
    public var number: Int
    /// `video`, `boomerang` or `photo`.
    public var kind: String
    /// The guestbook's question (the movie's `title` tag).
    public var question: String? = nil
    /// Seconds (a movie's).
    public var duration: Double? = nil
    /// A share folder was written for it.
    public var shared = false
    /// Hidden by the operator (`hideTake`).
    public var hidden = false
    /// The guest's choices (`share`, `slideshow`, `film`) from the consent log; nil: recorded without
    /// a consent screen (everything allowed).
    public var consent: [String]? = nil
    /// When it was accepted (Unix seconds), when the clock was synchronised then.
    public var acceptedAt: Int64? = nil
    /// The file's last change (Unix seconds), by the clock as it was then.
    public var modifiedAt: Int64 = 0
    public var bytes: Int64 = 0

    /// A take by its name, number and kind; what else is known is set after.
    public init(name: String, number: Int, kind: String) {
        (self.name, self.number, self.kind) = (name, number, kind)
    }
}

/// The booth's output folder as the console reads it: its own records, read as files.
public protocol TakeShelf: Sendable {
    /// The folder as the booth spells it: a take's path is this, `/` and its name.
    var folder: String { get }
    /// The listed takes, newest first.
    func takes() -> [ConsoleTake]
    /// Whether `name` is one of the listed takes.
    func isListed(_ name: String) -> Bool
    /// The listed take's thumbnail as a JPEG (nil: none can be made).
    func thumbnail(of name: String) -> [UInt8]?
    /// The name of the listed take whose share folder is `token`'s (compared in constant time), or nil.
    func take(sharedAs token: String) -> String?
    /// The name of the take deleted under `token` (the booth's `.kiosk-recorder.deleted`, compared in
    /// constant time), or nil.
    func take(deletedAs token: String) -> String?
    /// The consent log's bytes (nil: none).
    func consentLog() -> [UInt8]?
}

extension TakeShelf {
    public func take(sharedAs token: String) -> String? { nil }
    public func take(deletedAs token: String) -> String? { nil }
    public func consentLog() -> [UInt8]? { nil }
}

public final class ConsoleLive: Sendable {
    private let socket: String
    private let shelf: (any TakeShelf)?
    private let fanOut = EventFanOut()

    /// The live part for the booth at `socket` and its takes on `shelf` (nil: the booth keeps no folder).
    public init(socket: String, shelf: (any TakeShelf)?) {
        self.socket = socket
        self.shelf = shelf
    }

    /// Starts the subscription's thread; it runs as long as the process.
    public func start() throws(ConsoleError) {
        let socket = self.socket, fanOut = self.fanOut
        do {
            _ = try WorkerThread(name: "console-events") { thread in Self.follow(socket, fanOut: fanOut, thread: thread) }
        } catch { throw ConsoleError(error) }
    }

    /// The booth's events read from `socket` and handed to `fanOut`, until the process ends; a
    /// booth that is not there, or goes, is said once and tried again every `BoothLink.retry`.
    private static func follow(_ socket: String, fanOut: EventFanOut, thread: WorkerThread) {
        var link = BoothLink()
        func now() -> Double { Double(MonotonicClock.now()) / 1e9 }
        while !thread.isStopping {
            if let client = try? ControlClient(path: socket) {
                if let line = link.connected(now: now()) { fanOut.publish(line, linkSaid: line) }
                reading: while !thread.isStopping {
                    switch client.receive(until: MonotonicClock.after(seconds: 1)) {
                    case let .line(line): fanOut.publish(line, linkSaid: nil)
                    case .timedOut: continue
                    case .closed: break reading
                    }
                }
                if let line = link.lost("the booth at \(socket) closed the connection", now: now()) { fanOut.publish(line, linkSaid: line) }
            } else if let line = link.lost("no booth answers at \(socket)", now: now()) {
                fanOut.publish(line, linkSaid: line)
            }
            _ = thread.sleep(until: Int64(link.nextTry * 1e9))
        }
    }

    // MARK: - Answers

    /// Queues the answer to `request` on `connection`; `audit` takes a change's line.
    func reply(_ request: LiveRequest, _ http: ConsoleRequest, on connection: OpaquePointer?, audit: AuditLog) -> MHD_Result {
        switch request {
        case .events: return stream(on: connection)
        case .log: return ConsoleServer.queue(.json(200, "[" + fanOut.backlog().joined(separator: ",") + "]"), on: connection)
        case .takes:
            guard let shelf else { return ConsoleServer.queue(Self.noFolder, on: connection) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let text = (try? encoder.encode(shelf.takes())).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
            return ConsoleServer.queue(.json(200, text), on: connection)
        case let .change(action, name, address):
            let (response, result) = change(action, name)
            audit.append(AuditEntry(time: Date().timeIntervalSince1970, address: address, action: action.command + " " + name, result: result))
            return ConsoleServer.queue(response, on: connection)
        case let .file(kind, name):
            guard let shelf else { return ConsoleServer.queue(Self.noFolder, on: connection) }
            guard shelf.isListed(name) else { return ConsoleServer.queue(ConsoleRules.notFound, on: connection) }
            let path = shelf.folder + "/" + name
            let photo = [".jpg", ".jpeg"].contains { name.lowercased().hasSuffix($0) }
            if kind == .thumbnail, !photo {
                guard let jpeg = shelf.thumbnail(of: name) else { return ConsoleServer.queue(ConsoleRules.notFound, on: connection) }
                return ConsoleServer.queue(ConsoleResponse(status: 200, headers: Self.fileHeaders(type: "image/jpeg"), body: jpeg), on: connection)
            }
            return Self.file(path, type: photo ? "image/jpeg" : "video/mp4", range: http.headers["range"], on: connection)
        }
    }

    /// A take's file's headers: its type, never sniffed, framed or cached.
    static func fileHeaders(type: String) -> [String: String] {
        ConsoleRules.safety.merging(["Content-Type": type, "Cache-Control": "no-store"]) { a, _ in a }
    }

    static let noFolder = ConsoleResponse.error(404, "noTakeFolder", "the booth keeps no folder of takes (--output-dir)")

    /// The change sent to the booth on a connection of its own, waited for until its event (or a
    /// refusal) comes, 5 s at most: the answer and the audit log's result.
    private func change(_ action: TakeAction, _ name: String) -> (ConsoleResponse, result: String) {
        guard let shelf else { return (Self.noFolder, "noTakeFolder") }
        guard shelf.isListed(name) else { return (ConsoleRules.notFound, "notFound") }
        let path = shelf.folder + "/" + name
        let client: ControlClient
        do {
            client = try ControlClient(path: socket)
            try client.send(line: action.line(path: path))
        } catch {
            return TakeAnswer.response(nil, unreachable: "no booth answers at \(socket): \(error)")
        }
        let deadline = MonotonicClock.after(seconds: 5)
        while case let .line(line) = client.receive(until: deadline) {
            let answer = TakeAnswer.reply(to: line, action: action, path: path)
            if answer != .passed { return TakeAnswer.response(answer, unreachable: nil) }
        }
        return TakeAnswer.response(nil, unreachable: nil)
    }

    /// A guest's delete (`GuestDelete`): the booth's `deleteTake` by the token, sent on a connection of
    /// its own and waited for as a take change is (5 s at most). Only the `takeDeleted` of the token's
    /// own take answers it (the socket carries every client's lines): the one the folder's list gives
    /// the token, or, for a take not listed when asked, the one the booth's record of deleted tokens
    /// then names. A repeat delete (the token's take already deleted) is answered from that record
    /// at once, without the booth.
    func deleteForGuest(_ token: String) -> GuestDeleteOutcome {
        guard let shelf else { return .notFound }
        func path(_ name: String?) -> String? { name.map { shelf.folder + "/" + $0 } }
        let listed = path(shelf.take(sharedAs: token))
        if listed == nil, let gone = path(shelf.take(deletedAs: token)) { return .deleted(gone) }
        let client: ControlClient
        do {
            client = try ControlClient(path: socket)
            try client.send(line: GuestDeleteLine.line(token: token))
        } catch {
            return .later("no booth answers at \(socket): \(error)")
        }
        let deadline = MonotonicClock.after(seconds: 5)
        while case let .line(line) = client.receive(until: deadline) {
            let take = listed ?? (line.contains("\"takeDeleted\"") ? path(shelf.take(deletedAs: token)) : nil)
            if let outcome = GuestDeleteLine.outcome(of: line, path: take) { return outcome }
        }
        return .later("the booth did not answer within 5 s")
    }

    /// The consent log as CSV (`GET api/consent.csv`).
    func consentCSV() -> ConsoleResponse {
        guard let shelf else { return Self.noFolder }
        return ConsentRecords.answer(shelf.consentLog())
    }

    /// The event stream on `connection`: a browser of its own on the fan-out.
    private func stream(on connection: OpaquePointer?) -> MHD_Result {
        let client = fanOut.subscribe()
        let context = Unmanaged.passRetained(client).toOpaque()
        guard let made = MHD_create_response_from_callback(UInt64.max, 16 << 10, Self.read, context, Self.release) else {
            Unmanaged<EventClient>.fromOpaque(context).release()
            fanOut.unsubscribe(client)
            return kiosk_mhd_no
        }
        return ConsoleServer.queue(made, status: 200, headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                                                "X-Accel-Buffering": "no"], on: connection)
    }

    /// The stream's reader: on the connection's own thread, which it may hold until there is
    /// something to send (a thread per connection).
    private static let read: MHD_ContentReaderCallback = { context, _, buffer, max in
        guard let context, let buffer else { return -2 }
        return Unmanaged<EventClient>.fromOpaque(context).takeUnretainedValue().fill(buffer, max: max)
    }

    private static let release: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        let client = Unmanaged<EventClient>.fromOpaque(context).takeRetainedValue()
        client.owner.unsubscribe(client)
    }

    /// The file at `path` (a listed take, the film), whole or the asked range of it, from its
    /// descriptor; `extra` headers beside the file's own.
    static func file(_ path: String, type: String, range: String?, headers extra: [String: String] = [:], on connection: OpaquePointer?) -> MHD_Result {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) } catch {
            return ConsoleServer.queue(ConsoleRules.notFound, on: connection)
        }
        var info = stat()
        guard fstat(fd.rawValue, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return ConsoleServer.queue(ConsoleRules.notFound, on: connection) }
        let size = Int64(info.st_size)
        var headers = Self.fileHeaders(type: type).merging(extra.merging(["Accept-Ranges": "bytes"]) { a, _ in a }) { a, _ in a }
        var status = 200, offset: Int64 = 0, length = size
        switch ByteRange.parse(range, size: size) {
        case .unsatisfiable?:
            return ConsoleServer.queue(ConsoleResponse(status: 416, headers: ["Content-Range": "bytes */\(size)"]), on: connection)
        case let .part(start, count)?:
            (status, offset, length) = (206, start, count)
            headers["Content-Range"] = "bytes \(start)-\(start + count - 1)/\(size)"
        case nil: break
        }
        let raw = fd.take()
        // The response owns the descriptor from here: MHD closes it when the answer is done.
        guard let made = MHD_create_response_from_fd_at_offset64(UInt64(length), raw, UInt64(offset)) else {
            _ = FileDescriptor(owning: raw)
            return kiosk_mhd_no
        }
        return ConsoleServer.queue(made, status: status, headers: headers, on: connection)
    }
}

/// The booth's event lines handed to every browser watching, and kept for the Log page.
final class EventFanOut: Sendable {
    private struct State {
        var clients: [ObjectIdentifier: EventClient] = [:]
        var backlog = EventBacklog()
        /// The link's last word (`BoothLink.said`), a new browser's first line while no booth answers.
        var linkSaid: String?
    }

    private let state = Locked(State())

    /// `line` to every browser and the backlog; a browser whose queue overflows is dropped.
    /// `linkSaid`: the line is the console's own word on its link to the booth.
    func publish(_ line: String, linkSaid: String?) {
        let clients = state.withLock { state in
            state.backlog.append(line)
            if let linkSaid { state.linkSaid = linkSaid }
            return Array(state.clients.values)
        }
        for client in clients {
            if !client.queue.withLock({ $0.push(line) }) {
                unsubscribe(client)
                Log.info("console: a browser on the event stream did not read: more than \(ClientQueue.limit >> 20) MiB of events waited for it; dropped")
            }
            client.wake.signal()
        }
    }

    func subscribe() -> EventClient {
        let client = EventClient(owner: self)
        state.withLock { state in
            state.clients[ObjectIdentifier(client)] = client
            if let said = state.linkSaid, said.contains("boothUnreachable") { _ = client.queue.withLock { $0.push(said) } }
        }
        return client
    }

    func unsubscribe(_ client: EventClient) {
        _ = state.withLock { $0.clients.removeValue(forKey: ObjectIdentifier(client)) }
    }

    func backlog() -> [String] { state.withLock { $0.backlog.lines } }
}

/// One browser on the stream: its queue, filled by the fan-out, emptied by its connection's thread.
final class EventClient: Sendable {
    let owner: EventFanOut
    let queue = Locked(ClientQueue())
    let wake = DispatchSemaphore(value: 0)
    /// Framed bytes not yet handed to MHD: its connection's thread's only.
    private let pending = Locked(Array(ServerSentEvents.opening.utf8))

    init(owner: EventFanOut) { self.owner = owner }

    /// At most `max` bytes into `buffer`, waiting for lines (a keep-alive comment every
    /// `ServerSentEvents.keepAlive`); -2 (MHD_CONTENT_READER_END_WITH_ERROR) once dropped.
    func fill(_ buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        while true {
            let given = pending.withLock { bytes -> Int in
                let count = Swift.min(max, bytes.count)
                guard count > 0 else { return 0 }
                bytes.withUnsafeBytes { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress!, byteCount: count) }
                bytes.removeFirst(count)
                return count
            }
            if given > 0 { return given }
            let (lines, dropped) = queue.withLock { ($0.take(), $0.dropped) }
            if dropped { return -2 }
            if !lines.isEmpty {
                pending.withLock { $0 = Array(lines.map(ServerSentEvents.frame).joined().utf8) }
                continue
            }
            if wake.wait(timeout: .now() + ServerSentEvents.keepAlive) == .timedOut {
                pending.withLock { $0 = Array(ServerSentEvents.comment.utf8) }
            }
        }
    }
}
