// The raw sd-bus calls of this module, together: the system bus as one owner, a signal match,
// method calls (one returning a file descriptor, one whose answer is only that it was done), the
// loop's processing and polling, and the one error they give. sd-bus objects are not thread-safe:
// each connection is used on one thread (SystemSleep's; a SystemPower call's own).
import CSystemd
import Glibc
import KioskSystem

/// An sd-bus call that failed: the negative errno it returned, the call, and, when the other side
/// answered with a D-Bus error, its name and text. That is what a person needs to read: errno's
/// words for `org.freedesktop.DBus.Error.ServiceUnknown` would be "No route to host".
public struct BusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The negative errno the call returned.
    public let code: Int32
    /// The call, e.g. `sd_bus_open_system` or `org.freedesktop.login1.Manager.Inhibit`.
    public let call: String
    /// `name: message` of the D-Bus error in the reply, if there was one.
    public let remote: String?

    public var description: String { "\(call): \(remote ?? String(cString: strerror(-code)))" }
}

/// A connection to the system bus (`sd_bus_open_system`: `DBUS_SYSTEM_BUS_ADDRESS`, else
/// /run/dbus/system_bus_socket), closed when released (`sd_bus_flush_close_unref`). The matches it
/// makes are floating: they live, with their handlers, exactly as long as the connection.
final class SystemBus {
    private let bus: OpaquePointer
    /// The signal handlers the matches point at (their `userdata`), kept until the bus is closed.
    private var handlers: [SignalHandler] = []

    final class SignalHandler {
        let body: (Bool) -> Void
        init(_ body: @escaping (Bool) -> Void) { self.body = body }
    }

    init() throws(BusError) {
        var bus: OpaquePointer?
        let result = sd_bus_open_system(&bus)
        guard result >= 0, let bus else { throw BusError(code: result, call: "sd_bus_open_system", remote: nil) }
        self.bus = bus
    }

    /// The deinit runs before the stored handlers go: the bus, and its matches, are gone first.
    deinit { _ = sd_bus_flush_close_unref(bus) }

    /// Calls `handler` with the one boolean argument of each signal `member` from `sender` on
    /// `path` (`sd_bus_match_signal`), while `process()` runs.
    func onSignal(sender: String, path: String, interface: String, member: String,
                  _ handler: @escaping (Bool) -> Void) throws(BusError) {
        let box = SignalHandler(handler)
        let result = sd_bus_match_signal(bus, nil, sender, path, interface, member, { message, userdata, _ in
            var value: Int32 = 0
            // Paranoia: a signal of that name with another signature is not ours to act on.
            guard let message, let userdata,
                  sd_bus_message_read_basic(message, CChar(truncatingIfNeeded: UInt8(ascii: "b")), &value) >= 0 else { return 0 }
            Unmanaged<SignalHandler>.fromOpaque(userdata).takeUnretainedValue().body(value != 0)
            return 0
        }, Unmanaged.passUnretained(box).toOpaque())
        guard result >= 0 else { throw BusError(code: result, call: "sd_bus_match_signal(\(interface).\(member))", remote: nil) }
        handlers.append(box)
    }

    /// One argument of a method call: a string (`s`) or a boolean (`b`).
    enum Argument {
        case string(String)
        case boolean(Bool)
    }

    /// Calls `interface.member(arguments…)` on `destination` and waits up to `timeoutMicroseconds`
    /// for the reply (`sd_bus_call`); a D-Bus error in the reply is thrown with its name and text.
    /// The reply's values are left unread.
    func call(destination: String, path: String, interface: String, member: String,
              arguments: [Argument], timeoutMicroseconds: UInt64) throws(BusError) {
        let reply = try callForReply(destination: destination, path: path, interface: interface, member: member,
                                     arguments: arguments, timeoutMicroseconds: timeoutMicroseconds)
        sd_bus_message_unref(reply)
    }

    /// The reply to `interface.member(arguments…)`, which the caller unrefs.
    private func callForReply(destination: String, path: String, interface: String, member: String,
                              arguments: [Argument], timeoutMicroseconds: UInt64) throws(BusError) -> OpaquePointer {
        let name = "\(interface).\(member)"
        var call: OpaquePointer?
        var result = sd_bus_message_new_method_call(bus, &call, destination, path, interface, member)
        guard result >= 0, let call else { throw BusError(code: result, call: "sd_bus_message_new_method_call(\(name))", remote: nil) }
        defer { sd_bus_message_unref(call) }
        for argument in arguments {
            switch argument {
            case let .string(string):
                result = sd_bus_message_append_basic(call, CChar(truncatingIfNeeded: UInt8(ascii: "s")), string)
            case let .boolean(value):
                // D-Bus booleans are passed to sd-bus as an int.
                var int: Int32 = value ? 1 : 0
                result = sd_bus_message_append_basic(call, CChar(truncatingIfNeeded: UInt8(ascii: "b")), &int)
            }
            guard result >= 0 else { throw BusError(code: result, call: "sd_bus_message_append_basic(\(name))", remote: nil) }
        }
        var error = kiosk_SD_BUS_ERROR_NULL()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        result = sd_bus_call(bus, call, timeoutMicroseconds, &error, &reply)
        guard result >= 0, let reply else {
            let remote = error.name.map { String(cString: $0) + (error.message.map { ": " + String(cString: $0) } ?? "") }
            throw BusError(code: result, call: name, remote: remote)
        }
        return reply
    }

    /// Calls `interface.member(strings…)` on `destination` and waits up to `timeoutMicroseconds`
    /// for the reply (`sd_bus_call`), whose one value is a file descriptor (`h`). Returns a copy of
    /// it that the caller owns, close-on-exec (the reply's own goes with the reply).
    func callReturningFD(destination: String, path: String, interface: String, member: String,
                         strings: [String], timeoutMicroseconds: UInt64) throws(BusError) -> FileDescriptor {
        let name = "\(interface).\(member)"
        let reply = try callForReply(destination: destination, path: path, interface: interface, member: member,
                                     arguments: strings.map { .string($0) }, timeoutMicroseconds: timeoutMicroseconds)
        defer { sd_bus_message_unref(reply) }
        var fd: Int32 = -1
        let result = sd_bus_message_read_basic(reply, CChar(truncatingIfNeeded: UInt8(ascii: "h")), &fd)
        guard result >= 0 else { throw BusError(code: result, call: "sd_bus_message_read_basic(\(name) reply)", remote: nil) }
        do { return try FileDescriptor.duplicate(of: fd, minimum: 3) } catch {
            throw BusError(code: -error.errno, call: "fcntl(F_DUPFD_CLOEXEC) of the \(name) reply's fd", remote: nil)
        }
    }

    /// Handles everything that has arrived (`sd_bus_process` until it has nothing left to do):
    /// the signal handlers run here. Throws when the connection is gone.
    func process() throws(BusError) {
        while true {
            let result = sd_bus_process(bus, nil)
            if result < 0 { throw BusError(code: result, call: "sd_bus_process", remote: nil) }
            if result == 0 { return }
        }
    }

    /// What to poll for the bus: its fd and events (`sd_bus_get_fd`, `sd_bus_get_events`) and how
    /// long until it must be processed anyway, in milliseconds (`sd_bus_get_timeout`; -1: no limit).
    func pollRequest() throws(BusError) -> (fd: pollfd, timeoutMs: Int32) {
        let fd = sd_bus_get_fd(bus)
        guard fd >= 0 else { throw BusError(code: fd, call: "sd_bus_get_fd", remote: nil) }
        let events = sd_bus_get_events(bus)
        guard events >= 0 else { throw BusError(code: events, call: "sd_bus_get_events", remote: nil) }
        var until: UInt64 = 0
        let result = sd_bus_get_timeout(bus, &until)
        guard result >= 0 else { throw BusError(code: result, call: "sd_bus_get_timeout", remote: nil) }
        var timeoutMs: Int32 = -1
        if until != UInt64.max {
            // An absolute time on CLOCK_MONOTONIC, in microseconds; rounded up, so we wake after it.
            let now = UInt64(MonotonicClock.now() / 1000)
            timeoutMs = until <= now ? 0 : Int32(clamping: (until - now + 999) / 1000)
        }
        return (pollfd(fd: fd, events: Int16(truncatingIfNeeded: events), revents: 0), timeoutMs)
    }
}
