// Ends the UI thread's wait for input early, from any thread: a new camera frame, a message for
// the booth. With it the UI thread sleeps until there is something to do instead of waking every
// few milliseconds to look (the wake-ups themselves cost a ready booth about 1 % of a core).
import CSDL2
import Dispatch
import Synchronization

/// One wake-up at a time is pending: a burst of wakes between two waits costs one SDL event or
/// one semaphore count. `Sendable` by its parts: an atomic, a semaphore, a constant; SDL_PushEvent
/// is documented thread-safe.
public final class ScreenWaker: Sendable {
    /// The user event that wakes SDL's wait, on drivers whose wait sleeps in the kernel until an
    /// event comes (X11, Wayland: SDL_WaitEventTimeout polls their connection). Nil on the others
    /// (KMSDRM, dummy), where SDL's wait is a loop of 1 ms sleeps: there the UI thread sleeps on
    /// `semaphore` and then takes SDL's events without waiting.
    let eventType: UInt32?
    private let pending = Atomic<Bool>(false)
    private let semaphore = DispatchSemaphore(value: 0)

    /// UI thread, after SDL's video is up (`SDL_RegisterEvents`).
    init(videoDriver: String) {
        let blocking = ["x11", "wayland", "windows", "cocoa"].contains(videoDriver)
        let type = blocking ? SDL_RegisterEvents(1) : UInt32.max
        eventType = type == UInt32.max ? nil : type
    }

    /// Any thread: the UI thread's current or next wait ends at once.
    public func wake() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if let eventType {
            var event = SDL_Event()
            event.type = eventType
            if SDL_PushEvent(&event) < 0 { pending.store(false, ordering: .releasing) }
        } else {
            semaphore.signal()
        }
    }

    /// UI thread, on drivers without a sleeping wait: sleeps until a wake or `milliseconds`.
    func sleep(milliseconds: Int) {
        guard milliseconds > 0 else { return }
        _ = semaphore.wait(timeout: .now() + .milliseconds(milliseconds))
    }

    /// UI thread, right after a wait: what was posted before this is taken in this turn of the
    /// loop; a post after it wakes the next wait.
    func rearm() { pending.store(false, ordering: .releasing) }
}
