// What `systemctl status kiosk-recorder` shows of a booth left running for days (systemd's STATUS=):
// what it is doing now, and what happened since it started, so an operator reads the state of a
// booth at a glance, without reading its journal.

/// The booth's status line: the mode in words, the takes since launch, a slow disk.
public struct ServiceStatus: Sendable {
    /// Takes finished (with a picture), and of them those handed over (Use Video).
    public var takes = 0, used = 0
    /// `storageSlow` since launch: how often, and the longest sync seen then (s).
    public var slowDisk: (count: Int, worst: Double)?

    public init() {}

    /// A slow sync was said (`storageSlow`), after `waited` seconds.
    public mutating func diskWasSlow(_ waited: Double) {
        slowDisk = ((slowDisk?.count ?? 0) + 1, max(slowDisk?.worst ?? 0, waited))
    }

    /// A sync said to be slow has now waited `waited` seconds: the longest is kept.
    public mutating func slowSyncGoesOn(_ waited: Double) {
        if let slow = slowDisk, waited > slow.worst { slowDisk = (slow.count, waited) }
    }

    /// The line for the booth in `mode`: `saving` while a stopped take is still being saved after
    /// half a second (waiting for the disk, as a rule: then the slow disk is said too),
    /// `cameraAvailable` as the machine has it, `player` for `--play`.
    public func text(mode: Mode, saving: Bool, cameraAvailable: Bool, player: Bool) -> String {
        let now: String
        switch mode {
        case .ready: now = cameraAvailable ? "Ready." : "Ready, no camera: retrying every second."
        case .countdown: now = "Counting down to a take."
        case .recording: now = saving ? "Saving a take." : "Recording."
        case .finished: now = "A take in review."
        case .playing: now = player ? "Playing a file." : "Playing a take in review."
        case .sharing: now = "Showing a take's QR code."
        case .library: now = "Showing the library of takes."
        case .closed: now = "Closed by the operator."
        case .consent: now = "Asking a guest for consent."
        }
        var line = now
        if !player {
            line += takes == 0 ? " No take yet." : " \(takes) take\(takes == 1 ? "" : "s") since launch, \(used) used."
        }
        if let slow = slowDisk {
            // Whole seconds: while a stall lasts, the line changes once a second, not at every look.
            line += " The disk was slow \(slow.count == 1 ? "once" : "\(slow.count) times") (the longest sync \(Int(slow.worst.rounded())) s): check it."
        }
        return line
    }
}
