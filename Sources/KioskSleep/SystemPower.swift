// The machine's power and the booth's service, for the operator's console: logind's PowerOff and
// Reboot (org.freedesktop.login1.Manager) and systemd's RestartUnit (org.freedesktop.systemd1.Manager),
// each asked on a system bus connection of its own call, as the kiosk user; polkit decides (the
// package's rule allows them to that user alone).
import KioskSystem

public enum SystemPower {
    /// The booth's unit, the one the console may restart.
    public static let boothUnit = "kiosk-recorder.service"

    /// logind's `PowerOff(false)`: not interactive, so polkit never asks for a password.
    public static func powerOff() throws(BusError) { try login1("PowerOff") }

    /// logind's `Reboot(false)`.
    public static func reboot() throws(BusError) { try login1("Reboot") }

    /// systemd's `RestartUnit(unit, "replace")`: the booth ends as on `systemctl restart` (a take
    /// in progress is finished) and starts again.
    public static func restart(_ unit: String = boothUnit) throws(BusError) {
        try SystemBus().call(destination: "org.freedesktop.systemd1", path: "/org/freedesktop/systemd1",
                             interface: "org.freedesktop.systemd1.Manager", member: "RestartUnit",
                             arguments: [.string(unit), .string("replace")], timeoutMicroseconds: 10_000_000)
    }

    private static func login1(_ member: String) throws(BusError) {
        try SystemBus().call(destination: SystemSleep.login1, path: SystemSleep.login1Path, interface: SystemSleep.manager,
                             member: member, arguments: [.boolean(false)], timeoutMicroseconds: 10_000_000)
    }
}
