// The fragments' syncer on its own: what it reports reached, a failed sync, and a syncer that goes
// away taking its thread and its descriptor with it.
import Foundation
@testable import KioskStorage
import Testing
import KioskSystem
@testable import KioskMedia

@Suite("File syncer")
struct FileSyncerTests {
    /// How many of this process's descriptors are open on what `fd` is open on (counted by
    /// /proc/self/fd's links, so descriptors other tests open meanwhile do not count).
    func descriptors(sharing fd: Int32) -> Int {
        func target(_ path: String) -> String? { try? FileManager.default.destinationOfSymbolicLink(atPath: path) }
        guard let wanted = target("/proc/self/fd/\(fd)"),
              let all = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return -1 }
        return all.filter { target("/proc/self/fd/\($0)") == wanted }.count
    }

    @Test("requests made in turn: settle returns the last one synced; nothing before the first")
    func requests() throws {
        let url = scratch("syncer").appendingPathComponent("file")
        let file = try FileDescriptor.open(url.path, O_RDWR | O_CREAT, mode: 0o600)
        let fd = file.rawValue
        let syncer = try FileSyncer(duplicating: file)
        #expect(syncer.settle() == FileSyncer.Progress(synced: nil, failure: nil))
        for fragment in 1...5 {
            #expect(write(fd, [UInt8](repeating: UInt8(fragment), count: 4096), 4096) == 4096)
            syncer.request(FileSyncer.Point(end: Int64(4096 * fragment), duration: 0.5 * Double(fragment), fragments: fragment))
        }
        // The last request made is the last point reached, whatever ran or folded before it.
        #expect(syncer.settle() == FileSyncer.Progress(synced: FileSyncer.Point(end: 20480, duration: 2.5, fragments: 5), failure: nil))
    }

    @Test("a failed sync (fdatasync on a pipe: EINVAL) is kept, and no sync is tried after it; the syncer's thread and descriptor go with it")
    func failure() throws {
        let ends = try FileDescriptor.pipe()
        let write = ends.write.rawValue
        #expect(descriptors(sharing: write) == 2, "the pipe's two ends")
        do {
            let syncer = try FileSyncer(duplicating: ends.write)
            #expect(descriptors(sharing: write) == 3, "and the syncer's own")
            syncer.request(FileSyncer.Point(end: 10, duration: 0.5, fragments: 1))
            #expect(syncer.settle() == FileSyncer.Progress(synced: nil, failure: EINVAL))
            syncer.request(FileSyncer.Point(end: 20, duration: 1, fragments: 2))
            #expect(syncer.settle() == FileSyncer.Progress(synced: nil, failure: EINVAL))
        }
        // Its deinit waited for the thread, which closed the descriptor.
        #expect(descriptors(sharing: write) == 2)
    }

    @Test("the sync clock: how long the oldest sync running now has waited, nil when none runs; errno as the sync left it")
    func clock() throws {
        let clock = SyncClock()
        #expect(clock.waited() == nil)
        let inside = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread {
            clock.timing(.fragments) { inside.signal(); release.wait() }
            done.signal()
        }.start()
        inside.wait()
        let began = MonotonicClock.now()
        let later = began + 2_500_000_000
        // The fragments' sync began before `began`; the writer's, begun now, is the younger one.
        let writers = clock.timing(.writer) { () -> Int32 in
            let waited = clock.waited(at: later) ?? 0
            #expect(waited >= 2.5 && waited < 3.5, "\(waited)")
            errno = 0
            return fdatasync(-1)
        }
        #expect(writers == -1 && errno == EBADF, "errno as fdatasync left it")
        #expect((clock.waited(at: later) ?? 0) >= 2.5)
        release.signal()
        done.wait()
        #expect(clock.waited() == nil)
    }
}
