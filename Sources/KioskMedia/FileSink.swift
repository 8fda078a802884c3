// The output file as the muxer sees it: an fd the writer owns, written through a custom AVIOContext
// so that every byte's fate is known: how much is on disk, where the last whole fragment ended, and
// which write failed with which errno.
import CFFmpeg
import FoundationEssentials
import Glibc
import KioskCore
import KioskStorage
import KioskSystem

/// Owns the output file descriptor. Used by the encoder thread only.
final class FileSink {
    private let tally: OwnerTally
    let path: String
    /// The file, closed when the sink goes.
    let file: FileDescriptor
    /// Where the next write goes, as the muxer counts (it appends; it may seek back to patch a box).
    private(set) var position: Int64 = 0
    /// Bytes we put into the file ahead of the muxer's (the mehd box added to its header): the
    /// muxer's offset p is the file's p + shift.
    private(set) var shift: Int64 = 0
    /// The file's size.
    private(set) var size: Int64 = 0
    /// Where the last complete, synced fragment ended: the file is playable when cut here.
    private(set) var lastSyncedEnd: Int64 = 0
    /// The errno of the first failed write, if any.
    private(set) var failure: Int32?
    /// Times this file's syncs (the booth reads how long the disk keeps them waiting).
    let clock: SyncClock

    /// Creates the file: new (O_EXCL: never over an existing file, never through a symlink), with
    /// exactly `mode` (fchmod, whatever the umask). `syncingFolder`: its name is made durable at
    /// once (a take's); a share folder's files are synced with their folder when it is complete.
    init(path: String, mode: Int = 0o600, clock: SyncClock = SyncClock(), syncingFolder: Bool = true) throws(AVError) {
        let file: FileDescriptor
        do { file = try NewFile.create(path, mode: mode, readable: true) } catch { throw AVError(code: AVError.code(posix: error.errno), call: error.call) }
        // The new name is durable before anything is written under it.
        if syncingFolder { clock.timing(.writer) { FolderSync.sync(of: path) } }
        self.path = path
        self.file = file
        self.clock = clock
        tally = OwnerTally(FileSink.self)
    }

    /// Appends bytes, retrying short writes and EINTR. Returns bytes written or a negative AVERROR.
    func write(_ buffer: UnsafePointer<UInt8>, count: Int) -> Int32 {
        if let failure { return AVError.code(posix: failure) }
        var done = 0
        while done < count {
            let n = pwrite(file.rawValue, buffer + done, count - done, off_t(shift + position + Int64(done)))
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno
                advance(by: done)
                return AVError.code(posix: errno)
            }
            done += n
        }
        advance(by: done)
        return Int32(done)
    }

    private func advance(by count: Int) {
        position += Int64(count)
        size = max(size, shift + position)
    }

    /// Makes everything written so far durable (`fdatasync`) and remembers the point.
    func sync() -> Bool {
        guard failure == nil, clock.timing(.writer, { fdatasync(file.rawValue) }) == 0 else {
            if failure == nil { failure = errno }
            return false
        }
        lastSyncedEnd = size
        return true
    }

    /// A sync made on another descriptor of this file (`FileSyncer`) covered everything before `end`.
    func synced(upTo end: Int64) { lastSyncedEnd = max(lastSyncedEnd, end) }

    /// A sync made elsewhere failed: the file takes no more (the first failure is the one kept).
    func failed(_ error: Int32) {
        if failure == nil { failure = error }
    }

    /// Cuts the file back to the end of the last synced fragment (after a failed write, so the file
    /// ends on a whole fragment and frees what the partial one took).
    func truncateToLastSync() {
        if ftruncate(file.rawValue, off_t(lastSyncedEnd)) == 0 {
            position = lastSyncedEnd - shift
            size = lastSyncedEnd
            _ = clock.timing(.writer) { fsync(file.rawValue) }
        }
    }

    /// fsync of the file, then of its folder (so the name is durable too); false, logged, if either
    /// failed.
    @discardableResult
    func syncFileAndFolder() -> Bool {
        let synced = clock.timing(.writer) { fsync(file.rawValue) } == 0
        if !synced { Log.info("fsync(\(path)): \(String(cString: strerror(errno)))") }
        return clock.timing(.writer) { FolderSync.sync(of: path) } && synced
    }

    /// Replaces the first `size` bytes of the file (the header the muxer wrote, nothing after it yet)
    /// with `header`, which may be longer: later writes land after it.
    func replaceHeader(with header: [UInt8]) -> Bool {
        guard failure == nil, shift == 0, Int64(header.count) >= size else { return false }
        guard pwrite(file.rawValue, header, header.count, 0) == header.count else {
            failure = errno
            return false
        }
        shift = Int64(header.count) - size
        size = Int64(header.count)
        return true
    }

    /// The file's first `count` bytes (or fewer).
    func read(upTo count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let n = pread(file.rawValue, &bytes, count, 0)
        return n > 0 ? Array(bytes[0..<n]) : []
    }

    /// The AVIOContext seek callback: moves the write position, or answers the size.
    func seek(_ offset: Int64, whence: Int32) -> Int64 {
        let target: Int64
        switch whence {
        case AVSEEK_SIZE: return size - shift
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        case SEEK_END: target = size - shift + offset
        default: return Int64(AVError.code(posix: EINVAL))
        }
        guard target >= 0 else { return Int64(AVError.code(posix: EINVAL)) }
        position = target
        return target
    }
}

/// Makes a take's fragments durable on a thread of its own, so the encoder never waits for the disk.
/// An SD card's fdatasync can take longer than the writer's queue holds frames (eight: 0.27 s at
/// 30 fps); with the sync on the encoder's thread every frame that came meanwhile was dropped. A
/// kill -9 loses nothing more for it: what was written is in the page cache either way; only a power
/// cut may lose the fragment whose sync is still running.
///
/// One fdatasync at a time, on a descriptor of its own (a `dup`, closed when its thread ends). A
/// request made while a sync runs waits for it, then covers everything written before it was made;
/// requests made meanwhile fold into the latest. After a failed sync none is tried again.
final class FileSyncer: Sendable {
    /// A place in the file: everything before `end` holds `duration` seconds of the take in
    /// `fragments` fragments.
    struct Point: Sendable, Equatable {
        var end: Int64
        var duration: Double
        var fragments: Int
    }

    /// What the syncs have reached: the last point made durable (nil before the first), and the
    /// errno of the sync that failed.
    struct Progress: Sendable, Equatable {
        var synced: Point?
        var failure: Int32?
    }

    private struct State: Sendable {
        var wanted: Point?
        var running = false
        var progress = Progress()
        var closing = false
        /// The thread has closed its descriptor and returned.
        var ended = false
    }

    private let state = Monitor(State())
    private let tally: OwnerTally

    /// Starts the syncing thread on a duplicate of `file`.
    init(duplicating file: borrowing FileDescriptor, clock: SyncClock = SyncClock()) throws(AVError) {
        // The thread's own: taken out by the thread, or closed here if no thread starts.
        var own: FileDescriptor?
        do { own = try file.duplicate() } catch { throw AVError(code: AVError.code(posix: error.errno), call: error.call) }
        tally = OwnerTally(FileSyncer.self)
        // The thread holds the state and the descriptor, not the syncer: the syncer goes when its
        // session lets it go, and its deinit ends the thread.
        let state = self.state
        do {
            _ = try WorkerThread(name: "kiosk-sync") { _ in
                guard let fd = own.take() else { return }
                Self.run(fd: fd, state: state, clock: clock)
            }
        } catch {
            throw AVError(code: AVError.code(posix: error.errno), call: error.call)
        }
    }

    /// Lets the thread end once what was asked for is done, and waits for it (at once after
    /// `settle`): the descriptor is closed when the syncer is gone.
    deinit {
        state.update { $0.closing = true }
        state.wait { $0.ended ? () : nil }
    }

    /// Asks for everything written so far, which ends at `point`, to be made durable; returns at once.
    func request(_ point: Point) {
        state.update { s in
            if s.progress.failure == nil { s.wanted = point }
        }
    }

    /// What the syncs finished so far have reached (does not wait).
    var progress: Progress { state.read { $0.progress } }

    /// Waits until no sync is running or asked for, and returns what they reached.
    func settle() -> Progress {
        state.wait { s in s.wanted == nil && !s.running ? s.progress : nil }
    }

    private static func run(fd: consuming FileDescriptor, state: Monitor<State>, clock: SyncClock) {
        let raw = fd.rawValue
        while true {
            let next: Point? = state.wait { s -> Point?? in
                if let wanted = s.wanted {
                    s.wanted = nil
                    s.running = true
                    return .some(wanted)
                }
                return s.closing ? .some(nil) : nil
            }
            guard let point = next else { break }
            let error: Int32? = clock.timing(.fragments, { fdatasync(raw) }) == 0 ? nil : errno
            state.update { s in
                s.running = false
                if let error {
                    s.progress.failure = s.progress.failure ?? error
                    s.wanted = nil
                } else if s.progress.failure == nil {
                    s.progress.synced = point
                }
            }
        }
        // Closed before the syncer's deinit may return.
        _ = consume fd
        state.update { $0.ended = true }
    }
}

/// Owns the AVIOContext (and its buffer) through which the muxer writes into a FileSink
/// (`avio_alloc_context`, `avio_context_free`), and keeps the sink, which its callbacks reach.
final class IOContext {
    let pointer: UnsafeMutablePointer<AVIOContext>
    let sink: FileSink
    private let tally: OwnerTally

    init(writingTo sink: FileSink) throws(AVError) {
        let size = 64 * 1024
        guard let buffer = av_malloc(size) else { throw AVError(code: AVError.code(posix: ENOMEM), call: "av_malloc") }
        // Unretained: `self.sink` keeps the sink as long as the context lives.
        let opaque = Unmanaged.passUnretained(sink).toOpaque()
        let write: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, data, size in
            guard let opaque, let data else { return AVError.code(posix: EINVAL) }
            return Unmanaged<FileSink>.fromOpaque(opaque).takeUnretainedValue().write(data, count: Int(size))
        }
        let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
            guard let opaque else { return Int64(AVError.code(posix: EINVAL)) }
            let sink = Unmanaged<FileSink>.fromOpaque(opaque).takeUnretainedValue()
            return sink.seek(offset, whence: whence & ~AVSEEK_FORCE)
        }
        guard let io = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Int32(size), 1, opaque, nil, write, seek) else {
            av_free(buffer)
            throw AVError(code: AVError.code(posix: ENOMEM), call: "avio_alloc_context")
        }
        pointer = io
        self.sink = sink
        tally = OwnerTally(IOContext.self)
    }

    deinit {
        // The buffer the context holds now (it may have replaced the one it was given) is ours to free.
        av_free(pointer.pointee.buffer)
        var context: UnsafeMutablePointer<AVIOContext>? = pointer
        avio_context_free(&context)
    }
}
