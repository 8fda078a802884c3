// A joinable thread for the player's demuxer and decoders. Foundation's Thread cannot be joined, and
// KioskCapture's CaptureThread (a wake pipe for poll loops) sits in a module that depends on this
// one; the player's threads wait on condition variables, so a plain pthread is all they need.
import Foundation
import KioskCore
import Synchronization

final class WorkerThread: Sendable {
    private let thread = Mutex<pthread_t?>(nil)

    /// The body and its name, handed to the new thread and released there.
    private final class Start {
        let name: String
        let body: () -> Void
        init(name: String, body: @escaping () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Starts `body` on a new pthread (`pthread_create`); nil (logged) when the system has no
    /// thread to give. `body` is `sending`: what it captures (a decoder, say) belongs to the new
    /// thread from now on.
    init?(name: String, body: sending @escaping () -> Void) {
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var id = pthread_t()
        let result = pthread_create(&id, nil, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            // Shows in top -H and gdb.
            Thread.current.name = start.name
            start.body()
            return nil
        }, start)
        guard result == 0 else {
            Unmanaged<Start>.fromOpaque(start).release()
            Log.info("pthread_create(\(name)): \(String(cString: strerror(result)))")
            return nil
        }
        thread.withLock { $0 = id }
    }

    /// Waits for the thread to end (`pthread_join`); later calls return at once. Never from itself.
    func join() {
        if let id = thread.withLock({ $0.take() }) { pthread_join(id, nil) }
    }
}
