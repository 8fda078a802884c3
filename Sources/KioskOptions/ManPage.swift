// The manual page, kiosk-recorder(1), made from the option table as --help and the example config
// are: every listed option with its argument, help and default, the modes, the exit statuses, the
// signals, the files and examples. `kiosk-bench man-page` writes it; docs/kiosk-recorder.1 is that
// output, and a test fails when the two drift apart.
import KioskContract
import KioskCore

extension OptionParser {
    /// The page in man(7) roff.
    public static var manPage: String {
        var page: [String] = [
            #".\" kiosk-recorder(1): made from the option table by `kiosk-bench man-page`; edit Sources/KioskOptions/OptionTable.swift, not this file."#,
            ".TH KIOSK-RECORDER 1 \"\" \"kiosk-recorder \(KioskVersion.string)\" \"User Commands\"",
            ".SH NAME",
            #"kiosk-recorder \- a fullscreen touchscreen video booth"#,
            ".SH SYNOPSIS",
            #".B kiosk-recorder"#, #"[\fIoptions\fR]"#, ".br",
            #".B kiosk-recorder play"#, #"\fIFILE\fR [\fB\-\-loop\fR] [\fB\-\-fit\fR \fIfill\fR|\fIfit\fR] [\fIoptions\fR]"#, ".br",
            #".B kiosk-recorder check"#, #"[\fIoptions\fR]"#, ".br",
            #".B kiosk-recorder send"#, #"\fICOMMAND\fR [\fIoptions\fR]"#, ".br",
            #".B kiosk-recorder list-cameras"#, ".br",
            #".B kiosk-recorder reel"#, #"\fIDIR\fR [\fB\-\-output\fR \fIFILE\fR] [\fB\-\-title\fR \fITEXT\fR] [\fB\-\-size\fR \fIWxH\fR] [\fB\-\-reel\-background\fR \fI#RRGGBB\fR] [\fB\-\-reel\-text\fR \fI#RRGGBB\fR] [\fB\-\-json\fR] [\fB\-\-force\fR]"#,
            ".br", #".B kiosk-recorder config get"#, #"\fIKEY\fR [\fIoptions\fR]"#,
            ".br", #".B kiosk-recorder console"#, #"[\fB\-\-config\fR \fIFILE\fR] [\fB\-\-control\-socket\fR \fIPATH\fR] [\fB\-\-listen\fR \fIunix:PATH\fR|\fIHOST:PORT\fR] [\fB\-\-password\-file\fR \fIPATH\fR]"#,
            ".br", #".B kiosk-recorder console password"#, #"[\fB\-\-password\-file\fR \fIPATH\fR]"#,
            ".SH DESCRIPTION",
            "A fullscreen SDL2 video booth for Linux touchscreens: it shows the camera live, lets a guest record, "
                + "review, retake and accept a clip, and tells the program that started it what happened, as one JSON "
                + "object a line on standard output. Commands come as JSON lines on standard input (and on "
                + optionName("--control-socket") + "). Logs go to standard error.",
            ".SH MODES",
            ".TP", bold("play") + #" \fIFILE\fR"#, "Play a movie with the built-in player and exit (old spelling " + optionName("--play") + ").",
            ".TP", bold("check"), "Try each part of the booth (display, camera, microphone, encoder, disk, hooks), report, exit 0 or 1 (" + optionName("--check") + ").",
            ".TP", bold("send") + #" \fICOMMAND\fR"#, "Hand one command to the booth listening on " + optionName("--control-socket") + ", print the events until its answer, exit (" + optionName("--send") + ").",
            ".TP", bold("list-cameras"), "Print the cameras and their formats as JSON, exit (" + optionName("--list-cameras") + ").",
            ".TP", bold("reel") + #" \fIDIR\fR"#, "Make the hosts' film of every take kept in " + #"\fIDIR\fR"# + ", oldest first: a title card ("
                + optionName("--title") + " with the first take's date under it, or the date, written in " + optionName("--language") + ", en by default), then each take after a card with its question (or its time), "
                + "each card fading in from black and out to black over half a second, in " + optionName("--reel-text") + " on "
                + optionName("--reel-background") + " (#RRGGBB; white on black), then the take upright, its pictures as they are, at one size ("
                + optionName("--size") + ", 1280x720) with black bars, its sound at " + #"\-16"# + " LUFS; H.264 and AAC with the index first, at "
                + optionName("--output") + " (reel.mp4), which replaces an existing file only with " + optionName("--force")
                + " and never a take. A take that cannot be read is left out and named; SIGINT or SIGTERM leave no file. "
                + optionName("--json") + " prints reelProgress and reelFinished lines. Exit 0, 1 (no takes, none readable, or the film not finished), 2 (a bad option).",
            ".TP", bold("config get") + #" \fIKEY\fR"#, "Print the setting " + #"\fIKEY\fR"# + " (a config file's key, an option's name without its dashes) as the booth reads it from "
                + optionName("--config") + " and the other options given, and exit: 0 with its value on a line of its own (nothing for a setting not set), 2 for an unknown key or a bad config. "
                + "Scripts read the booth's settings so (the setup script's hotspot), never with a parser of their own.",
            ".TP", bold("console"), "The operator's console: a web page and an HTTP API under /console/, served on "
                + optionName("--listen") + " (unix:/run/kiosk-recorder/console.sock) by a process of its own that drives the booth only through its control socket ("
                + optionName("--control-socket") + ", or control-socket in the booth's " + optionName("--config") + " file). Locked until the operator signs in with the password in "
                + optionName("--password-file") + " (/var/lib/kiosk-recorder/console-password); every action goes into console-audit.log beside it, and the hosts' film made from its page (kiosk-recorder reel, run by the console) into console-film.mp4. Exit 2 for a bad option.",
            ".TP", bold("console password"), "Set the console's password: one line from standard input, or typed twice without echo on a terminal; at least 8 characters (else exit 2). "
                + "The file holds a yescrypt hash, mode 0600.",
            ".SH OPTIONS",
            "Every option can also be set as " + #"\fIkey\fR = \fIvalue\fR"# + " in the file " + optionName("--config") + " names; a flag wins over the file.",
        ]
        for option in options where option.listed {
            let argument: String = switch option.argument {
            case .none: ""
            case let .required(placeholder): #" \fI"# + escape(placeholder) + #"\fR"#
            case let .optional(placeholder): #" [\fI"# + escape(placeholder) + #"\fR]"#
            }
            page += [".TP", bold("--" + option.name) + argument, escape(option.help + option.defaultPhrase)]
        }
        page += [
            ".SH EXIT STATUS",
            ".TP", "0", "After an outcome (Use Video or Cancel in a once session), a quit, or a handled signal.",
            ".TP", "1", "A file play cannot play; a problem check found; a booth send cannot reach, or that refused or did not answer its command; "
                + "a booth that could not start (its assets, a temporary folder, threads).",
            ".TP", "2", "Bad usage or configuration: the message names the option, or the file and line.",
            ".TP", "3", "No display could be opened.",
            ".SH SIGNALS",
            "Whatever the parent passed on (a blocked mask, SIG_IGN), the booth takes these signals itself:",
            ".TP", "SIGUSR1, SIGTSTP", "The app goes to the background: a recording stops and is kept (reason background); on SIGTSTP the process then stops.",
            ".TP", "SIGCONT, SIGUSR2", "Back to the foreground.",
            ".TP", "SIGTERM, SIGINT", "Finish any recording cleanly (reason signal), then the event terminated, exit 0.",
            ".TP", "SIGHUP", "Reload the " + optionName("--config") + " file; the booth goes on.",
            ".SH FILES",
            ".TP", #"\fI/etc/kiosk-recorder/kiosk.conf\fR"#, "The configuration a service reads (" + optionName("--config") + ").",
            ".TP", #"\fIDIR\fB/.kiosk-recorder.takes\fR, \fB.kiosk-recorder.counter\fR, \fB.kiosk-recorder.hooks\fR"#,
            "In " + optionName("--output-dir") + ": the accepted takes, the take counter and the hooks still owed.",
            ".TP", #"\fI/var/lib/kiosk-recorder\fR"#, "The service's takes (its " + optionName("--output-dir") + "; the kiosk user's alone, 0750, each take 0600). A purge of the package keeps them.",
            ".TP", #"\fI/srv/kiosk-recorder/share\fR"#, "The share folders (" + optionName("--share-dir") + "), which the web server's user reads; served at /s/ by the site /usr/share/kiosk-recorder/setup share installs.",
            ".TP", #"\fI/run/kiosk-recorder/control\fR"#, "The service's control socket, when the config sets " + optionName("--control-socket") + " to it.",
            ".TP", #"\fI/usr/share/kiosk-recorder/setup\fR"#, "As root, " + bold("setup share") + ": nginx serving the share folders; " + bold("setup hotspot") + ": that and the booth's own Wi-Fi (NetworkManager), named by the config's " + optionName("--share-wifi-ssid") + " and " + optionName("--share-wifi-password") + ".",
            ".SH EXAMPLES",
            "Record one take with the test pattern and tone, in a window:",
            ".PP", ".nf", ".RS",
            #"kiosk-recorder \-\-camera test \-\-microphone test \-\-windowed"#,
            ".RE", ".fi", ".PP",
            "A booth as a service, its takes kept in a folder, each uploaded by a hook:",
            ".PP", ".nf", ".RS",
            #"kiosk-recorder \-\-output\-dir /var/lib/kiosk-recorder \-\-session loop \e"#,
            #"    \-\-max\-takes 500 \-\-on\-take 'rclone copy "$KIOSK_TAKE_PATH" remote:booth'"#,
            ".RE", ".fi", ".PP",
            "Ask a running booth for its state:",
            ".PP", ".nf", ".RS",
            #"kiosk-recorder send state \-\-control\-socket /run/kiosk-recorder/control"#,
            ".RE", ".fi",
            ".SH SEE ALSO",
            "The full contract (commands, events, signals): /usr/share/doc/kiosk-recorder/interface.md; deployment: /usr/share/doc/kiosk-recorder/deploy.md.",
        ]
        return page.joined(separator: "\n") + "\n"
    }

    /// `text` safe in roff: backslashes as `\e`, hyphens as `\-` (so a copied option is an ASCII
    /// hyphen), a leading dot or quote kept from reading as a request.
    static func escape(_ text: String) -> String {
        let body = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
        return body.hasPrefix(".") || body.hasPrefix("'") ? "\\&" + body : body
    }

    private static func bold(_ text: String) -> String { "\\fB" + escape(text) + "\\fR" }
    private static func optionName(_ text: String) -> String { "\\fB" + escape(text) + "\\fR" }
}
