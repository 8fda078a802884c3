// Whether the wall clock can be trusted for ages (retention's --max-age).
import CLinux
import FoundationEssentials

/// The wall clock, trusted only when the kernel says it is synchronised (NTP, or an RTC the
/// operator vouches for with `KIOSK_CLOCK_TRUSTED=1`): a Raspberry Pi boots without a real-time
/// clock, at a date that jumps when the network comes.
public enum WallClock {
    /// Unix seconds now, or nil while the clock is not synchronised. `trusted`: the operator's
    /// word (`KioskEnvironment.clockTrusted`).
    public static func synchronisedNow(trusted: Bool) -> Int64? {
        guard isSynchronised(trusted: trusted) else { return nil }
        return Int64(Date().timeIntervalSince1970)
    }

    public static func isSynchronised(trusted: Bool) -> Bool {
        if trusted { return true }
        // adjtimex with no modes (a zeroed struct timex) reads the state: TIME_ERROR means "not
        // synchronised".
        var buffer = [UInt8](repeating: 0, count: 512)
        return buffer.withUnsafeMutableBytes { clinux_adjtimex($0.baseAddress) } != CLINUX_TIME_ERROR
    }
}
