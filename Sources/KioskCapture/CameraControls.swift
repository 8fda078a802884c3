// The booth's camera settings (`camera.exposure = auto`, `camera.focus = 300`, …) as V4L2 controls:
// what each needs of the camera, checked against what it offers (VIDIOC_QUERYCTRL), set in one
// VIDIOC_S_EXT_CTRLS; the controls listed for `--list-cameras`; a focus trigger for a tap.
import CV4L2
import FoundationEssentials
import KioskContract
import KioskCore

/// What V4L2 says of one control.
struct V4L2ControlInfo {
    let id: UInt32
    let name: String
    let type: UInt32
    let minimum: Int
    let maximum: Int
    let step: Int
    let defaultValue: Int
    let flags: UInt32

    var isWriteOnly: Bool { flags & UInt32(V4L2_CTRL_FLAG_WRITE_ONLY) != 0 }
    var isDisabled: Bool { flags & UInt32(V4L2_CTRL_FLAG_DISABLED) != 0 }

    var typeName: String {
        switch type {
        case V4L2_CTRL_TYPE_INTEGER.rawValue: "integer"
        case V4L2_CTRL_TYPE_BOOLEAN.rawValue: "boolean"
        case V4L2_CTRL_TYPE_MENU.rawValue: "menu"
        case V4L2_CTRL_TYPE_BUTTON.rawValue: "button"
        case V4L2_CTRL_TYPE_INTEGER64.rawValue: "integer64"
        case V4L2_CTRL_TYPE_CTRL_CLASS.rawValue: "class"
        case V4L2_CTRL_TYPE_STRING.rawValue: "string"
        case V4L2_CTRL_TYPE_BITMASK.rawValue: "bitmask"
        case V4L2_CTRL_TYPE_INTEGER_MENU.rawValue: "integer menu"
        default: "type \(type)"
        }
    }
}

/// The V4L2 control ids the booth's settings use.
enum ControlID {
    static let brightness = UInt32(V4L2_CID_BRIGHTNESS)
    static let exposureAuto = UInt32(V4L2_CID_EXPOSURE_AUTO)
    static let exposureAbsolute = UInt32(V4L2_CID_EXPOSURE_ABSOLUTE)
    static let autoWhiteBalance = UInt32(V4L2_CID_AUTO_WHITE_BALANCE)
    static let whiteBalanceTemperature = UInt32(V4L2_CID_WHITE_BALANCE_TEMPERATURE)
    static let focusAuto = UInt32(V4L2_CID_FOCUS_AUTO)
    static let focusAbsolute = UInt32(V4L2_CID_FOCUS_ABSOLUTE)
    static let autoFocusStart = UInt32(V4L2_CID_AUTO_FOCUS_START)
    static let flashLEDMode = UInt32(V4L2_CID_FLASH_LED_MODE)

    /// The booth's setting each control belongs to, for `--list-cameras`.
    static let settings: [UInt32: CameraControl] = [
        brightness: .brightness, exposureAuto: .exposure, exposureAbsolute: .exposure,
        autoWhiteBalance: .whiteBalance, whiteBalanceTemperature: .whiteBalance,
        focusAuto: .focus, focusAbsolute: .focus, autoFocusStart: .focus, flashLEDMode: .torch,
    ]
}

extension V4L2Device {
    /// One control by id, nil when the camera lacks it (or has it disabled).
    func control(_ id: UInt32) -> V4L2ControlInfo? {
        var q = v4l2_queryctrl()
        q.id = id
        guard (try? ioctl(kiosk_VIDIOC_QUERYCTRL(), "VIDIOC_QUERYCTRL", &q)) != nil else { return nil }
        let info = Self.info(q)
        return info.isDisabled ? nil : info
    }

    /// Every control, in id order (`V4L2_CTRL_FLAG_NEXT_CTRL`), class headings left out.
    func allControls() -> [V4L2ControlInfo] {
        var result: [V4L2ControlInfo] = []
        var id = UInt32(V4L2_CTRL_FLAG_NEXT_CTRL)
        for _ in 0..<512 {
            var q = v4l2_queryctrl()
            q.id = id
            guard (try? ioctl(kiosk_VIDIOC_QUERYCTRL(), "VIDIOC_QUERYCTRL", &q)) != nil else { break }
            let info = Self.info(q)
            if info.type != V4L2_CTRL_TYPE_CTRL_CLASS.rawValue && !info.isDisabled { result.append(info) }
            guard q.id > id & ~UInt32(V4L2_CTRL_FLAG_NEXT_CTRL) else { break } // a driver that does not advance
            id = q.id | UInt32(V4L2_CTRL_FLAG_NEXT_CTRL)
        }
        return result
    }

    private static func info(_ q: v4l2_queryctrl) -> V4L2ControlInfo {
        V4L2ControlInfo(id: q.id, name: cString(q.name), type: q.type, minimum: Int(q.minimum), maximum: Int(q.maximum),
                        step: Int(q.step), defaultValue: Int(q.default_value), flags: q.flags)
    }

    /// The controls as `--list-cameras` shows them, with their values now and menu entries.
    func describeControls() -> [CameraControlDescription] {
        allControls().map { c in
            var value: Int?
            if !c.isWriteOnly && c.type != V4L2_CTRL_TYPE_BUTTON.rawValue {
                var g = v4l2_control()
                g.id = c.id
                if (try? ioctl(kiosk_VIDIOC_G_CTRL(), "VIDIOC_G_CTRL", &g)) != nil { value = Int(g.value) }
            }
            var menu: [String: String]?
            if c.type == V4L2_CTRL_TYPE_MENU.rawValue, c.maximum - c.minimum < 64 {
                var entries: [String: String] = [:]
                for index in max(c.minimum, 0)...max(c.maximum, 0) {
                    var m = v4l2_querymenu()
                    m.id = c.id
                    m.index = UInt32(index)
                    if (try? ioctl(kiosk_VIDIOC_QUERYMENU(), "VIDIOC_QUERYMENU", &m)) != nil {
                        entries[String(index)] = withUnsafeBytes(of: m.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                    }
                }
                menu = entries
            }
            return CameraControlDescription(name: c.name, id: c.id, type: c.typeName, minimum: c.minimum, maximum: c.maximum,
                                            step: c.step, default: c.defaultValue, value: value, menu: menu,
                                            setting: ControlID.settings[c.id]?.key)
        }
    }

    /// Sets the controls in one `VIDIOC_S_EXT_CTRLS`.
    func set(_ values: [(id: UInt32, value: Int32)]) throws(V4L2Error) {
        guard !values.isEmpty else { return }
        var controls = values.map { pair -> v4l2_ext_control in
            var c = v4l2_ext_control()
            c.id = pair.id
            c.value = pair.value
            return c
        }
        var all = v4l2_ext_controls()
        all.count = UInt32(controls.count)
        let result: Result<Void, V4L2Error> = controls.withUnsafeMutableBufferPointer { buffer in
            all.controls = buffer.baseAddress
            return Result { () throws(V4L2Error) in try ioctl(kiosk_VIDIOC_S_EXT_CTRLS(), "VIDIOC_S_EXT_CTRLS", &all) }
        }
        try result.get()
    }
}

/// The camera settings as V4L2 controls for one camera: what to set and what cannot be.
struct ControlPlan {
    var values: [(id: UInt32, value: Int32)] = []
    /// One message per setting this camera cannot take (the `cameraControl` errors).
    var problems: [String] = []

    /// Plans `settings` for the camera behind `lookup` (a control by id, nil when missing).
    init(_ settings: [CameraControl: CameraControlValue], lookup: (UInt32) -> V4L2ControlInfo?) {
        for control in CameraControl.allCases {
            guard let setting = settings[control] else { continue }
            let asked = "\(control.key) = \(control == .torch ? (setting == .value(1) ? "on" : "off") : setting.description)"
            // The controls this setting needs, in the order they must be set (the mode before the value).
            var needed: [(UInt32, (V4L2ControlInfo) -> Int?)] = []
            var optional: [(UInt32, Int32)] = []
            switch (control, setting) {
            case (.exposure, .auto):
                // UVC cameras offer aperture priority (3) as their automatic mode; others auto (0).
                needed = [(ControlID.exposureAuto, { $0.maximum >= 3 ? 3 : 0 })]
            case let (.exposure, .value(n)):
                needed = [(ControlID.exposureAuto, { _ in 1 }), (ControlID.exposureAbsolute, { _ in n })]
            case (.whiteBalance, .auto):
                needed = [(ControlID.autoWhiteBalance, { _ in 1 })]
            case let (.whiteBalance, .value(n)):
                optional = [(ControlID.autoWhiteBalance, 0)]
                needed = [(ControlID.whiteBalanceTemperature, { _ in n })]
            case (.brightness, .auto):
                needed = [(ControlID.brightness, { $0.defaultValue })]
            case let (.brightness, .value(n)):
                needed = [(ControlID.brightness, { _ in n })]
            case (.focus, .auto):
                needed = [(ControlID.focusAuto, { _ in 1 })]
            case let (.focus, .value(n)):
                optional = [(ControlID.focusAuto, 0)]
                needed = [(ControlID.focusAbsolute, { _ in n })]
            case let (.torch, .value(n)):
                needed = [(ControlID.flashLEDMode, { _ in n == 0 ? Int(V4L2_FLASH_LED_MODE_NONE.rawValue) : Int(V4L2_FLASH_LED_MODE_TORCH.rawValue) })]
            case (.torch, .auto):
                continue
            }
            var planned: [(id: UInt32, value: Int32)] = []
            var problem: String?
            for (id, value) in needed {
                guard let info = lookup(id) else {
                    problem = "\(asked): this camera has no \(Self.names[id] ?? "control \(id)") control"
                    break
                }
                guard let v = value(info), v >= info.minimum, v <= info.maximum else {
                    problem = "\(asked): out of this camera's \(info.name) range \(info.minimum)…\(info.maximum)"
                    break
                }
                planned.append((id, Int32(v)))
            }
            if let problem {
                problems.append(problem)
                continue
            }
            values += optional.filter { lookup($0.0) != nil }.map { (id: $0.0, value: $0.1) } + planned
        }
    }

    /// The V4L2 names of the controls, for messages about a camera that lacks one.
    static let names: [UInt32: String] = [
        ControlID.brightness: "Brightness", ControlID.exposureAuto: "Auto Exposure",
        ControlID.exposureAbsolute: "Exposure Time, Absolute", ControlID.autoWhiteBalance: "White Balance, Automatic",
        ControlID.whiteBalanceTemperature: "White Balance Temperature", ControlID.focusAuto: "Focus, Automatic Continuous",
        ControlID.focusAbsolute: "Focus, Absolute", ControlID.flashLEDMode: "LED Mode (torch)",
    ]
}
