// The environment variables the recorder reads, read once: the executables (kiosk-recorder,
// kiosk-bench) make a `KioskEnvironment` from their environment at launch and hand each library the
// part it needs, so no library reads the environment itself (kiosk/test checks that).
import FoundationEssentials

/// What the `KIOSK_*` variables (and `SDL_VIDEODRIVER`) say, each with its meaning when unset.
public struct KioskEnvironment: Equatable, Sendable {
    /// `KIOSK_ASSETS`: the assets folder (fonts, sounds). When set it must be right: a wrong one is
    /// an error, not passed over (`Assets.locate`). nil: unset or empty, the folder is looked for.
    public var assets: String?
    /// `KIOSK_CLOCK_TRUSTED=1`: the operator vouches for the wall clock (a battery RTC without NTP),
    /// so `--max-age` counts ages by it although the kernel does not call it synchronised.
    public var clockTrusted: Bool
    /// `KIOSK_VIDEO_DEVICE_DIR`: where `video*` capture devices are looked for (`auto`,
    /// `--list-cameras`, `--check`); /dev when unset. For tests and unusual systems.
    public var videoDeviceFolder: String
    /// `KIOSK_INPUT_DIR`: where the input devices are (`--check`, the KMSDRM touch warning);
    /// /dev/input when unset. For tests and unusual systems.
    public var inputFolder: String
    /// `KIOSK_DRI_DIR`: where the VA-API encoder's render nodes (`renderD*`) are; /dev/dri when unset.
    public var renderFolder: String
    /// `KIOSK_TEST_ENCODERS=1`: the test-only encoders (`test_stall_h264`, `test_slow_h264`, libx264
    /// under other names; docs/recording.md) answer to their names. Never set in production.
    public var testEncoders: Bool
    /// `KIOSK_STATS=1`: the booth writes its preview statistics lines to stderr (bench/preview).
    public var stats: Bool
    /// `KIOSK_HOOK_BACKOFF=SECONDS`: the wait after a hook's first failed try (10 s when unset),
    /// doubling as ever. Test-only: the tests of the retried hook would otherwise wait 10 s and more.
    public var hookBackoff: Double?
    /// `KIOSK_NM_DIR`: NetworkManager's configuration folder, where `kiosk/install --hotspot` puts the
    /// booth's access point (`system-connections/kiosk-hotspot.nmconnection`); /etc/NetworkManager when unset.
    public var networkManagerFolder: String
    /// `SDL_VIDEODRIVER` as the operator set it (SDL reads it itself): only an explicit choice may
    /// land on SDL's `offscreen` or `dummy` driver, where a fallback to it means "no display".
    public var videoDriver: String?
    /// `KIOSK_THERMAL_DIR`: where the console reads the thermal zones (`thermal_zone*/temp`);
    /// /sys/class/thermal when unset. For tests and unusual systems.
    public var thermalFolder: String
    /// `KIOSK_TEST_SLOW_KEY=MS`: each picture the green screen keys takes MS milliseconds longer (a
    /// sleep on the camera's thread, and in `--check`'s keying trial), so a test makes the key too
    /// slow for the camera on any machine; 0 when unset. Never set in production.
    public var slowKey: Int64

    /// Nothing set: every variable's meaning when unset.
    public init() {
        self.init([:])
    }

    /// The variables as `variables` (an environment, e.g. `ProcessInfo.processInfo.environment`)
    /// holds them.
    public init(_ variables: [String: String]) {
        assets = variables["KIOSK_ASSETS"].flatMap { $0.isEmpty ? nil : $0 }
        clockTrusted = variables["KIOSK_CLOCK_TRUSTED"] == "1"
        videoDeviceFolder = variables["KIOSK_VIDEO_DEVICE_DIR"] ?? "/dev"
        inputFolder = variables["KIOSK_INPUT_DIR"] ?? "/dev/input"
        renderFolder = variables["KIOSK_DRI_DIR"] ?? "/dev/dri"
        testEncoders = variables["KIOSK_TEST_ENCODERS"] == "1"
        stats = variables["KIOSK_STATS"] == "1"
        hookBackoff = variables["KIOSK_HOOK_BACKOFF"].flatMap(Double.init).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        videoDriver = variables["SDL_VIDEODRIVER"]
        networkManagerFolder = variables["KIOSK_NM_DIR"] ?? "/etc/NetworkManager"
        thermalFolder = variables["KIOSK_THERMAL_DIR"] ?? "/sys/class/thermal"
        slowKey = variables["KIOSK_TEST_SLOW_KEY"].flatMap(Int64.init).map { min(max($0, 0), 10_000) * 1_000_000 } ?? 0
    }

    /// The booth's access point's keyfile (`kiosk/install --hotspot`).
    public var hotspotConnection: String { networkManagerFolder + "/system-connections/kiosk-hotspot.nmconnection" }
}
