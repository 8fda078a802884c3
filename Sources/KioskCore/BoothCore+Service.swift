// The booth core's service room: what systemd's status line says (ServiceStatus, from `ready` on
// until the booth is on its way out, when it changed) and what `--metrics-file` counts
// (BoothFigures, written when MetricsPace says so, and once more as the booth leaves), both from what
// the core hears: the takes recorded, used, discarded and shared, the pictures they lost, the slow
// disk, the hooks owed, the camera and the meter. The booth says the line and writes the file.
import KioskContract

/// What the status line and the metrics count beyond the machine (BoothCore+Service).
public struct ServiceRoom: Sendable {
    /// The status line's counts and the slow disk, and the line last said.
    public internal(set) var status = ServiceStatus()
    var statusSaid: String?
    /// Takes discarded and shared, and the pictures the takes lost.
    public internal(set) var discarded = 0, shared = 0, framesDropped = 0
    /// The bytes a second of the last take that gave a rate: the disk's seconds count at it.
    public internal(set) var bytesPerSecond: Double?
    /// The booth's uptime and camera as the last turn measured them (`state`'s figures).
    public internal(set) var running: StateFigures.Running?
    /// The take on disk now (this process's, in review) was recorded: discarding it counts.
    var takeCounted = false
    var pace = MetricsPace()
    /// systemd's watchdog: how often it wants `WATCHDOG=1` (ns; nil: no watchdog), and when the next is due.
    var watchdogInterval: Int64?
    var watchdogDue: Int64 = 0

    public init() {}
}

extension BoothCore {
    /// What the service room counts of a machine event, before the machine hears it: a take
    /// finished (its lost pictures; recorded when it succeeded, at the rate it gave), a take's share
    /// folder written.
    mutating func serviceHears(_ event: RecorderEvent) {
        switch event {
        case let .recordingFinished(result):
            service.framesDropped += result.droppedFrames
            service.takeCounted = result.success
            guard result.success else { return }
            service.status.takes += 1
            // TimeLeft's rate leaves the first second out (headers, the first key frame); a take too
            // short for one counts whole, a little dearer than the next long one will be.
            if let rate = take.timeLeft.rate ?? (result.duration >= 1 ? Double(result.bytes) / result.duration : nil) {
                service.bytesPerSecond = rate
            }
        case let .takeShared(link) where link.photo == nil:
            service.shared += 1
        default:
            break
        }
    }

    /// A take handed over (`used`), or this run's own take discarded (counted once, if recorded).
    mutating func serviceCounts(handedOver: Bool) {
        if handedOver {
            service.status.used += 1
        } else if service.takeCounted {
            service.discarded += 1
        }
        service.takeCounted = false
    }

    /// The figures as the core has them now (the last take's time and the disk's seconds are the
    /// booth's).
    var figures: BoothFigures {
        var f = BoothFigures()
        f.recorded = service.status.takes
        f.used = service.status.used
        f.discarded = service.discarded
        f.shared = service.shared
        f.framesDropped = service.framesDropped
        f.cameraUp = machine.cameraAvailable
        // Whole dB: the file changes with the level, not with its noise.
        if settings.microphone { f.microphoneLevel = listener.level.rounded() }
        f.hooksPending = jobs.owed.pending
        return f
    }

    /// Each turn: the status line when it changed (from `ready` on, until the booth is on its way
    /// out), and the figures when `MetricsPace` says so (with `--metrics-file`).
    mutating func serviceLook(at now: Int64) -> [Effect] {
        var effects: [Effect] = []
        if readyOut, !stoppingSaid {
            let text = service.status.text(mode: machine.mode, saving: take.saving, cameraAvailable: machine.cameraAvailable,
                                           player: machine.playerFile != nil)
            if text != service.statusSaid {
                service.statusSaid = text
                effects.append(.service(.status(text)))
            }
        }
        let figures = figures
        if settings.metrics, service.pace.due(figures, now: now) {
            effects.append(.service(.metrics(figures, bytesPerSecond: service.bytesPerSecond, final: false)))
        }
        return effects
    }

    /// Each pass of the loop (before `ready` too): `WATCHDOG=1` when it is due, then one interval on.
    /// Never due without a watchdog (systemd's WATCHDOG_USEC for this process).
    mutating func watchdogLook() -> [Effect] {
        guard let interval = service.watchdogInterval, now >= service.watchdogDue else { return [] }
        service.watchdogDue = now + interval
        return [.service(.watchdog)]
    }
}
