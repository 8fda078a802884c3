// The output file as the muxer sees it: an fd the writer owns, written through a custom AVIOContext
// so that every byte's fate is known: how much is on disk, where the last whole fragment ended, and
// which write failed with which errno.
import CFFmpeg
import Foundation
import KioskCore

/// Owns the output file descriptor. Used by the encoder thread only.
final class FileSink {
    private let tally: OwnerTally
    let path: String
    let fd: Int32
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

    /// Creates the file: new (O_EXCL: never over an existing file, never through a symlink), with
    /// exactly `mode` (fchmod, whatever the umask).
    init(path: String, mode: Int = 0o600) throws(AVError) {
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(mode))
        guard fd >= 0 else { throw AVError(code: AVError.code(posix: errno), call: "open(\(path))") }
        fchmod(fd, mode_t(mode))
        // The new name is durable before anything is written under it.
        Self.syncFolder(of: path)
        self.path = path
        self.fd = fd
        tally = OwnerTally(FileSink.self)
    }

    deinit { close(fd) }

    /// Appends bytes, retrying short writes and EINTR. Returns bytes written or a negative AVERROR.
    func write(_ buffer: UnsafePointer<UInt8>, count: Int) -> Int32 {
        if let failure { return AVError.code(posix: failure) }
        var done = 0
        while done < count {
            let n = pwrite(fd, buffer + done, count - done, off_t(shift + position + Int64(done)))
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
        guard failure == nil, fdatasync(fd) == 0 else {
            if failure == nil { failure = errno }
            return false
        }
        lastSyncedEnd = size
        return true
    }

    /// Cuts the file back to the end of the last synced fragment (after a failed write, so the file
    /// ends on a whole fragment and frees what the partial one took).
    func truncateToLastSync() {
        if ftruncate(fd, off_t(lastSyncedEnd)) == 0 {
            position = lastSyncedEnd - shift
            size = lastSyncedEnd
            _ = fsync(fd)
        }
    }

    /// fsync of the file, then of its folder (so the name is durable too); false, logged, if either
    /// failed.
    @discardableResult
    func syncFileAndFolder() -> Bool {
        let file = fsync(fd) == 0
        if !file { Log.info("fsync(\(path)): \(String(cString: strerror(errno)))") }
        return Self.syncFolder(of: path) && file
    }

    /// fsync of the folder a path is in (a name created, renamed or removed there becomes durable);
    /// false, logged, if it failed.
    @discardableResult
    static func syncFolder(of path: String) -> Bool {
        let folder = (path as NSString).deletingLastPathComponent
        let dfd = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0, fsync(dfd) == 0 else {
            Log.info("fsync of the folder of \(path): \(String(cString: strerror(errno)))")
            if dfd >= 0 { close(dfd) }
            return false
        }
        close(dfd)
        return true
    }

    /// Replaces the first `size` bytes of the file (the header the muxer wrote, nothing after it yet)
    /// with `header`, which may be longer: later writes land after it.
    func replaceHeader(with header: [UInt8]) -> Bool {
        guard failure == nil, shift == 0, Int64(header.count) >= size else { return false }
        guard pwrite(fd, header, header.count, 0) == header.count else {
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
        let n = pread(fd, &bytes, count, 0)
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
