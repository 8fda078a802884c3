// swift-tools-version:6.0
// KioskRecorder: a fullscreen SDL2 video booth for Linux (see docs/ and ../shared/DESIGN.md).
import PackageDescription

/// A system-library target: a module map plus one shim header in Sources/<name>.
func cModule(_ name: String, pkgConfig: String, apt: [String]) -> Target {
    .systemLibrary(name: name, path: "Sources/\(name)", pkgConfig: pkgConfig, providers: [.apt(apt)])
}

let package = Package(
    name: "KioskRecorder",
    products: [
        .executable(name: "kiosk-recorder", targets: ["kiosk-recorder"]),
        .executable(name: "kiosk-bench", targets: ["kiosk-bench"]),
        // Test-only: the fake V4L2 camera, a libv4l2 plugin (Tests/FakeV4L2Camera/README.md).
        .library(name: "KioskFakeV4L2Camera", type: .dynamic, targets: ["KioskFakeV4L2Camera"]),
        // Test-only: an LD_PRELOAD shim that makes fdatasync and rename fail (fsync and fdatasync slow) on demand (Tests/FailingSyscalls).
        .library(name: "KioskFailingSyscalls", type: .dynamic, targets: ["KioskFailingSyscalls"]),
        // Test-only: an LD_PRELOAD shim that widens the test runner's cooperative pool (Tests/WidePool).
        .library(name: "KioskWidePool", type: .dynamic, targets: ["KioskWidePool"]),
        // Test-only: a fake microphone as an alsa-lib PCM plugin (Tests/FakeALSAMicrophone).
        .library(name: "KioskFakeALSAMicrophone", type: .dynamic, targets: ["KioskFakeALSAMicrophone"]),
    ],
    targets: [
        // SDL's pkg-config adds -D_REENTRANT, a flag SwiftPM refuses with a warning on every build;
        // the shims include <SDL2/...> instead, which needs no flags at all.
        .systemLibrary(name: "CSDL2", path: "Sources/CSDL2", providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(name: "CSDL2TTF", path: "Sources/CSDL2TTF", providers: [.apt(["libsdl2-ttf-dev"])]),
        // fontconfig without pkg-config: its flags add FreeType's folders, which fontconfig.h does not need.
        .systemLibrary(name: "CFontconfig", path: "Sources/CFontconfig", providers: [.apt(["libfontconfig-dev"])]),
        cModule("CV4L2", pkgConfig: "libv4l2", apt: ["libv4l-dev"]),
        cModule("CALSA", pkgConfig: "alsa", apt: ["libasound2-dev"]),
        // The GNU parts of glibc (pipe2, pthread_setname_np) that Swift's Glibc module leaves out.
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        cModule("CFFmpeg", pkgConfig: "libavformat", apt: [
            "libavformat-dev", "libavcodec-dev", "libavfilter-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev",
        ]),
        // libebur128: the take's loudness (EBU R128, true peak) at its hand-over (KioskMedia's LoudnessMeter).
        cModule("CEBUR128", pkgConfig: "libebur128", apt: ["libebur128-dev"]),
        // libjpeg-turbo: the cameras' MJPEG pictures (KioskMedia's CameraJPEGDecoder).
        cModule("CTurboJPEG", pkgConfig: "libturbojpeg", apt: ["libturbojpeg0-dev"]),
        // sd-bus: logind's sleep inhibitor on the system bus (KioskSleep).
        cModule("CSystemd", pkgConfig: "libsystemd", apt: ["libsystemd-dev"]),
        // libqrencode: the share screen's QR codes (KioskUI's QRCode).
        cModule("CQRencode", pkgConfig: "libqrencode", apt: ["libqrencode-dev"]),
        // GNU libmicrohttpd: the operator's console's HTTP (KioskConsole's ConsoleServer).
        cModule("CMicroHTTPD", pkgConfig: "libmicrohttpd", apt: ["libmicrohttpd-dev"]),
        // libxcrypt: the console's password, hashed with yescrypt (KioskConsole's PasswordHash).
        cModule("CCrypt", pkgConfig: "libcrypt", apt: ["libcrypt-dev"]),

        // The JSON contract on stdout: the events (`KioskEvent`) as plain data, their encoding and
        // the values they carry. Pure Swift, the bottom of the tree: depends on nothing of ours.
        .target(name: "KioskContract"),
        // The screen's words: the strings table in each language with the operator's overrides, the
        // prompt's line breaks, the timer's text. Pure Swift over KioskContract (a button's title).
        .target(name: "KioskScreenText", dependencies: ["KioskContract"]),
        // Pure Swift: state machine, geometry, the booth's rules. Imports no C module of ours, only
        // the contract and the screen's words below it (bench/fuzz builds the three alone).
        .target(name: "KioskCore", dependencies: ["KioskContract", "KioskScreenText"]),
        // The options: one table, its parser, `Configuration`, the reload's rules, --help, the man page.
        // Pure Swift over KioskCore (bench/fuzz builds the two together for the config files).
        .target(name: "KioskOptions", dependencies: ["KioskCore", "KioskContract", "KioskScreenText"]),
        // The small base: threads, the lock, the monotonic clock, the signal watcher, the output lines; no module of ours.
        .target(name: "KioskSystem", dependencies: ["CLinux"]),
        // Files, folders and their rules: the takes' folder and list, a take's marker and cut, photos,
        // share folders, the hook queue, the disk's space and syncs. No codec: KioskMedia speaks to FFmpeg.
        .target(name: "KioskStorage", dependencies: ["KioskCore", "KioskContract", "KioskScreenText", "KioskSystem"]),
        .target(name: "KioskMedia", dependencies: ["KioskCore", "KioskContract", "KioskScreenText", "KioskSystem", "KioskStorage", "KioskPixels", "CFFmpeg", "KioskAVFilterLoader", "CTurboJPEG", "CEBUR128", "KioskFonts"]),
        // libavfilter looked up with the first filter graph, not linked: the calls CFFmpeg's
        // avfilter_on_demand.h declares (linked, its 30 libraries cost every start 22 ms of CPU here).
        .target(name: "KioskAVFilterLoader"),
        // The per-sample loops of the camera's pictures, in C at -O2 in every build (docs/recording.md).
        .target(name: "KioskPixels", cSettings: [.unsafeFlags(["-O2"])]),
        .target(name: "KioskCapture", dependencies: ["KioskCore", "KioskContract", "KioskSystem", "KioskPixels", "CV4L2", "CALSA"]),
        // fontconfig's match, one way, for the screen's faces and the film's cards'.
        .target(name: "KioskFonts", dependencies: ["CFontconfig"]),
        .target(name: "KioskUI", dependencies: ["KioskCore", "KioskContract", "KioskScreenText", "KioskSystem", "KioskFonts", "KioskPairing", "KioskPixels", "CSDL2", "CSDL2TTF", "CFontconfig", "CQRencode"]),
        // The machine's sleep held off while a take is made safe: logind's delay inhibitor over
        // sd-bus. A target of its own so libsystemd stays out of the small base (KioskSystem).
        .target(name: "KioskSleep", dependencies: ["KioskCore", "KioskSystem", "CSystemd"]),

        // `--check`: each part of the booth tried as the booth will use it, before the event.
        .target(name: "KioskPreflight", dependencies: ["KioskCore", "KioskContract", "KioskScreenText", "KioskOptions", "KioskSystem", "KioskCapture", "KioskStorage", "KioskMedia", "KioskUI"]),
        // The operator's console (`kiosk-recorder console`): its rules as values (sessions, the
        // sign-in limit, CSRF and origin checks, the router) and the HTTP library's thin glue. It
        // reaches the booth only through the control socket, handed in by the executable.
        .target(name: "KioskConsole", dependencies: ["KioskSystem", "KioskPassword", "KioskScreenText", "CMicroHTTPD"]),
        // The operator's password one way for the console and the booth's keyboard (a yescrypt hash,
        // libxcrypt), and the one-time pairing code the booth hands the console.
        .target(name: "KioskPassword", dependencies: ["KioskSystem", "CCrypt"]),
        // Pairing a phone from the booth's screen: the keyboard's geometry and the rule, pure Swift over KioskCore.
        .target(name: "KioskPairing", dependencies: ["KioskCore"]),
        // The booth's heart: one inbox, the machine's actions carried out, a UI thread that never waits.
        .target(name: "KioskBooth", dependencies: ["KioskCore", "KioskContract", "KioskScreenText", "KioskOptions", "KioskSystem", "KioskCapture", "KioskStorage", "KioskMedia", "KioskUI", "KioskSleep", "KioskPairing", "KioskPassword"]),
        .executableTarget(
            name: "kiosk-recorder",
            dependencies: ["KioskCore", "KioskContract", "KioskScreenText", "KioskOptions", "KioskSystem", "KioskCapture", "KioskStorage", "KioskMedia", "KioskUI", "KioskSleep", "KioskBooth", "KioskPreflight", "KioskConsole", "KioskPassword"]),
        .executableTarget(
            name: "kiosk-bench",
            dependencies: ["KioskCore", "KioskContract", "KioskOptions", "KioskSystem", "KioskCapture", "KioskStorage", "KioskMedia", "KioskPixels"]),

        .target(name: "KioskFakeV4L2Camera", dependencies: ["CFFmpeg"], path: "Tests/FakeV4L2Camera",
                exclude: ["README.md", "with-fake-camera"]),
        .target(name: "KioskFakeALSAMicrophone", path: "Tests/FakeALSAMicrophone", exclude: ["README.md"],
                // PIC: alsa-lib's headers then export the plugin's version symbol as a shared
                // library must (without it they expect a static build's constructor table).
                cSettings: [.define("PIC")], linkerSettings: [.linkedLibrary("asound"), .linkedLibrary("m")]),

        .target(name: "KioskFailingSyscalls", path: "Tests/FailingSyscalls", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "KioskWidePool", path: "Tests/WidePool", linkerSettings: [.linkedLibrary("dl")]),

        // Test-only: the one program runner the test targets share (Tests/KioskTestSupport).
        .target(name: "KioskTestSupport", dependencies: ["KioskCore", "KioskSystem", "CLinux"], path: "Tests/KioskTestSupport"),

        .testTarget(name: "KioskContractTests", dependencies: ["KioskContract"]),
        .testTarget(name: "KioskScreenTextTests", dependencies: ["KioskScreenText", "KioskContract"]),
        .testTarget(name: "KioskCoreTests", dependencies: ["KioskCore", "KioskContract", "KioskScreenText", "KioskSystem"]),
        .testTarget(name: "KioskOptionsTests", dependencies: ["KioskOptions", "KioskCore", "KioskContract", "KioskScreenText", "KioskSystem"]),
        .testTarget(name: "KioskSystemTests", dependencies: ["KioskCore", "KioskSystem", "KioskTestSupport"]),
        .testTarget(name: "KioskCaptureTests", dependencies: ["KioskCapture", "KioskContract", "KioskSystem", "KioskMedia", "KioskPixels", "KioskTestSupport"],
                    exclude: ["audio"]),
        .testTarget(name: "KioskMediaTests", dependencies: ["KioskMedia", "KioskContract", "KioskScreenText", "KioskStorage", "KioskSystem", "KioskTestSupport"]),
        .testTarget(name: "KioskUITests", dependencies: ["KioskUI", "KioskContract", "KioskScreenText", "KioskMedia", "KioskSystem", "KioskTestSupport", "KioskPairing"]),
        .testTarget(name: "KioskBoothTests", dependencies: ["KioskBooth", "KioskContract", "KioskScreenText", "KioskOptions", "KioskStorage", "KioskSystem"]),
        .testTarget(name: "KioskPreflightTests", dependencies: ["KioskPreflight", "KioskCore", "KioskContract", "KioskOptions", "KioskMedia", "KioskStorage", "KioskSystem"]),
        .testTarget(name: "KioskConsoleTests", dependencies: ["KioskConsole", "KioskPassword"]),
        .testTarget(name: "KioskPairingTests", dependencies: ["KioskPairing", "KioskCore"]),
        .testTarget(name: "KioskRecorderTests", dependencies: ["KioskCore", "KioskContract", "KioskScreenText", "KioskOptions", "KioskSystem", "KioskTestSupport", "KioskPairing"]),
    ]
)
