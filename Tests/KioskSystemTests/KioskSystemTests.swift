// The base: the monotonic clock, the worker thread (join, stop, wake pipe) and the signal watcher
// (a blocked signal sent to it reaches the closure, on its thread).
import Foundation
import Synchronization
import Testing
import KioskCore
import KioskSystem
import KioskTestSupport

/// The name of the calling thread, as top -H shows it.
private func threadName() -> String {
    ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
}

@Suite("MonotonicClock")
struct MonotonicClockTests {
    @Test("sleep(until:) returns at the deadline, not before, and at once for one already past")
    func sleepUntil() {
        let start = MonotonicClock.now()
        MonotonicClock.sleep(until: start + 20_000_000)
        let slept = MonotonicClock.now() - start
        #expect(slept >= 20_000_000 && slept < 500_000_000, "\(slept) ns")
        let past = MonotonicClock.now()
        MonotonicClock.sleep(until: past - 1_000_000_000)
        #expect(MonotonicClock.now() - past < 100_000_000)
    }
}

@Suite("WorkerThread")
struct WorkerThreadTests {
    @Test("the body runs on a thread of its own with the name given (cut to the kernel's 15 bytes); join waits for it")
    func runsAndJoins() throws {
        let seen = Locked<(name: String, stopping: Bool)?>(nil)
        let thread = try WorkerThread(name: "kiosk-test-pattern") { thread in
            usleep(50_000)
            seen.withLock { $0 = (threadName(), thread.isStopping) }
        }
        thread.join()
        #expect(seen.withLock { $0?.name } == "kiosk-test-patt")
        #expect(seen.withLock { $0?.stopping } == false)
        thread.join() // a second join returns at once
    }

    @Test("stop wakes a body waiting on the wake pipe or sleeping on the clock at once, and joins it", arguments: [false, true])
    func stopWakes(sleeping: Bool) throws {
        let returned = Locked<Bool?>(nil)
        let started = Atomic(false)
        let thread = try WorkerThread(name: "kiosk-waiting") { thread in
            started.store(true, ordering: .releasing)
            if sleeping {
                returned.withLock { $0 = thread.sleep(until: MonotonicClock.now() + 60_000_000_000) }
            } else {
                thread.wait(milliseconds: 60_000)
                returned.withLock { $0 = thread.isStopping }
            }
        }
        #expect(eventually { started.load(ordering: .acquiring) })
        usleep(20_000)
        let before = MonotonicClock.now()
        thread.stop()
        #expect(MonotonicClock.now() - before < 500_000_000, "stop took \(MonotonicClock.now() - before) ns")
        // sleep(until:) says false (stopped early); the waiting body sees the flag.
        #expect(returned.withLock { $0 } == !sleeping)
        thread.stop() // a second stop returns at once
    }

    @Test("sleep(until:) on a running thread returns true at the deadline")
    func sleepsToDeadline() throws {
        let result = Locked<(Bool, Int64)?>(nil)
        let thread = try WorkerThread(name: "kiosk-sleeper") { thread in
            let deadline = MonotonicClock.now() + 30_000_000
            let slept = thread.sleep(until: deadline)
            result.withLock { $0 = (slept, MonotonicClock.now() - deadline) }
        }
        thread.join()
        let (slept, late) = try #require(result.withLock { $0 })
        #expect(slept && late >= 0 && late < 100_000_000, "late by \(late) ns")
    }

    @Test("FileDescriptor.pipe: both ends close-on-exec, blocking unless asked")
    func pipes() throws {
        for nonBlocking in [false, true] {
            let pipe = try FileDescriptor.pipe(nonBlocking: nonBlocking)
            for fd in [pipe.read.rawValue, pipe.write.rawValue] {
                #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
                #expect((fcntl(fd, F_GETFL) & O_NONBLOCK != 0) == nonBlocking)
            }
        }
    }

    @Test("the wake pipe is close-on-exec and non-blocking")
    func wakePipeFlags() throws {
        let thread = try WorkerThread(name: "kiosk-flags") { thread in thread.wait(milliseconds: 60_000) }
        defer { thread.stop() }
        #expect(fcntl(thread.wakeFD, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(thread.wakeFD, F_GETFL) & O_NONBLOCK != 0)
    }
}

@Suite("SignalWatcher")
struct SignalWatcherTests {
    @Test("a blocked signal sent to the watcher reaches the closure on the watcher's thread, each one in order")
    func delivers() throws {
        let received = Locked<[(signal: Int32, thread: String)]>([])
        let watcher = try SignalWatcher(signals: [SIGUSR1, SIGUSR2], name: "kiosk-sigtest") { number in
            received.withLock { $0.append((number, threadName())) }
        }
        watcher.raise(SIGUSR2)
        #expect(eventually { received.withLock { $0.count } == 1 })
        watcher.raise(SIGUSR1)
        #expect(eventually { received.withLock { $0.count } == 2 })
        watcher.stop()
        #expect(received.withLock { $0.map(\.signal) } == [SIGUSR2, SIGUSR1])
        #expect(received.withLock { $0.map(\.thread) } == ["kiosk-sigtest", "kiosk-sigtest"])
        // Stopped: the thread is gone, a raise goes nowhere, and stopping again returns at once.
        watcher.raise(SIGUSR1)
        watcher.stop()
        usleep(20_000)
        #expect(received.withLock { $0.count } == 2)
    }

    @Test("starting a watcher leaves the caller's signal mask as it was; block() blocks in the calling thread")
    func masks() throws {
        func blocked(_ number: Int32) -> Bool {
            var current = sigset_t()
            pthread_sigmask(SIG_BLOCK, nil, &current)
            return sigismember(&current, number) == 1
        }
        // On a thread of our own, so the test runner's thread keeps its mask. SIGWINCH (ignored
        // unless handled) is unblocked there first: the runner's threads may block it.
        let result = Locked<[Bool]>([])
        let thread = try WorkerThread(name: "kiosk-masks") { _ in
            var winch = sigset_t()
            sigemptyset(&winch)
            sigaddset(&winch, SIGWINCH)
            pthread_sigmask(SIG_UNBLOCK, &winch, nil)
            var answers = [blocked(SIGWINCH)]
            if let watcher = try? SignalWatcher(signals: [SIGWINCH], handler: { _ in }) {
                answers.append(blocked(SIGWINCH))
                watcher.stop()
            }
            // takeOver makes the handled signals the whole mask (SIGWINCH's default action is to
            // ignore it, so the test runner's disposition for it stays harmless).
            answers.append((try? SignalWatcher.takeOver([SIGWINCH])) != nil)
            answers.append(blocked(SIGWINCH))
            answers.append(SignalWatcher.blocked(of: [SIGWINCH, SIGUSR2]) == [SIGWINCH])
            answers.append((try? SignalWatcher.release([SIGWINCH])) != nil)
            answers.append(blocked(SIGWINCH))
            result.withLock { $0 = answers }
        }
        thread.join()
        #expect(result.withLock { $0 } == [false, false, true, true, true, true, false])
    }

    @Test("a number that is no signal is refused")
    func refusesNonSignal() {
        let error = #expect(throws: SystemError.self) { try SignalWatcher(signals: [999], handler: { _ in }) }
        #expect(error?.call == "sigaddset(999)" && error?.errno == EINVAL)
    }
}

@Suite("MallocArenas", .serialized)
struct MallocArenasTests {
    /// Page faults this thread has taken so far (minor and major).
    private func faults() -> Int {
        var r = rusage()
        // RUSAGE_THREAD (1), which Swift's Glibc module leaves out with the other GNU parts.
        getrusage(1, &r)
        return r.ru_minflt + r.ru_majflt
    }

    // Under AddressSanitizer (kiosk/test --sanitize address) malloc is ASan's, which quarantines
    // what is freed instead of reusing it: glibc's policy is not there to test.
    @Test("with large blocks kept, frames' worth of memory freed and taken again is reused, not faulted in afresh",
          .enabled(if: ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil, "glibc's malloc only"))
    func largeBlocksReused() {
        MallocArenas.keepLargeBlocks(environment: [:])
        // Three 6 MiB frames at a time, all freed each round: more free heap than glibc's own rule
        // keeps after blocks that size (twice the size), less than the 32 MiB kept.
        let bytes = 6 << 20, pages = bytes / Int(sysconf(Int32(_SC_PAGESIZE)))
        func round() {
            let blocks = (0..<3).map { _ in malloc(bytes)! }
            for block in blocks { memset(block, 1, bytes) }
            blocks.forEach { free($0) }
        }
        round()
        let before = faults()
        for _ in 0..<20 { round() }
        let taken = faults() - before
        // Faulted afresh, each round takes 3 × `pages` (4,608 with 4 KiB pages; 20 rounds about
        // 92,000 here without the policy). Kept, none but when this thread is moved to another arena
        // (glibc does that when its arena is busy with other tests' threads): a few rounds' worth.
        #expect(taken < 5 * 3 * pages, "\(taken) page faults in 20 rounds of \(3 * pages) pages touched")
    }

    /// This process's resident memory in MiB (/proc/self/statm).
    private func residentMiB() -> Double {
        let fields = ((try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "").split(separator: " ")
        return Double(fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }

    @Test("giveBack returns freed heap to the kernel, holes below a block still in use included",
          .enabled(if: ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil, "glibc's malloc only"))
    func giveBackReturnsHoles() {
        MallocArenas.keepLargeBlocks(environment: [:])
        // 64 MiB in 1 MiB blocks from the heap, touched; all but the last freed: a hole of 63 MiB
        // under a block in use, which the heap's own trimming (at its top only) cannot return.
        let bytes = 1 << 20
        let blocks = (0..<64).map { _ in malloc(bytes)! }
        for block in blocks { memset(block, 1, bytes) }
        blocks.dropLast().forEach { free($0) }
        let before = residentMiB()
        MallocArenas.giveBack()
        let after = residentMiB()
        free(blocks.last!)
        // Other tests' threads allocate meanwhile: most of the hole, not all of it.
        #expect(before - after > 40, "resident \(before) MiB before, \(after) MiB after")
    }
}
