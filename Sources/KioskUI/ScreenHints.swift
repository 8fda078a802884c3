// What the screen tells a person when no display opens: the general hint, and the one for KMSDRM
// (what it needs and what usually stands in its way).

extension Screen {
    /// What to tell a person when no display can be opened (printed with the `SDLError`, exit 3).
    public static let noDisplayHint = """
        kiosk-recorder needs a display. On a desktop, start it inside the graphical session (DISPLAY or \
        WAYLAND_DISPLAY set); on a bare device SDL's KMSDRM driver needs /dev/dri (the video and render \
        groups) and no other program holding the screen. SDL_VIDEODRIVER=x11, wayland or KMSDRM picks the \
        driver. Without any display, run it under Xvfb: xvfb-run -s '-screen 0 1280x720x24' kiosk-recorder \
        --windowed (SDL_VIDEODRIVER=dummy draws to nowhere, for tests).
        """

    /// The hint for a display that would not open, made specific for KMSDRM (asked for with
    /// `SDL_VIDEODRIVER=KMSDRM`, or named in SDL's error): what it needs and what usually stands in
    /// its way. `devices`: the `card*` nodes in /dev/dri.
    public static func noDisplayHint(error: String, requestedDriver: String?, devices: [String]) -> String {
        guard error.lowercased().contains("kmsdrm") || requestedDriver?.lowercased() == "kmsdrm" else { return noDisplayHint }
        guard !devices.isEmpty else {
            return "KMSDRM could not open the screen: there is no /dev/dri/card*, so the GPU's KMS driver is not loaded "
                + "(on a Raspberry Pi: dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt)."
        }
        return "KMSDRM could not open the screen. It must be DRM master of \(devices.joined(separator: " or ")): nothing else "
            + "may hold the screen. A desktop session or display manager does (systemctl status display-manager): stop it "
            + "(sudo systemctl stop display-manager), boot to the console (sudo systemctl set-default multi-user.target), or run "
            + "the booth inside that desktop (SDL_VIDEODRIVER=x11 or wayland). The booth's user needs the video group (render "
            + "for the GPU). With several cards (a Raspberry Pi 5 with a DSI panel) pick the panel's with "
            + "SDL_KMSDRM_DEVICE_INDEX=N (N as in /dev/dri/cardN)."
    }
}
