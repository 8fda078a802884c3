// The booth's camera settings planned as V4L2 controls for a camera: which controls, which values,
// in which order, and what a camera that lacks one or has another range is told.
import CV4L2
import KioskCore
import Testing
@testable import KioskCapture

@Suite("Camera control plan")
struct CameraControlPlanTests {
    static func control(_ id: UInt32, _ min: Int, _ max: Int, default def: Int = 0, name: String = "X") -> V4L2ControlInfo {
        V4L2ControlInfo(id: id, name: name, type: V4L2_CTRL_TYPE_INTEGER.rawValue, minimum: min, maximum: max, step: 1,
                        defaultValue: def, flags: 0)
    }

    /// A UVC webcam: brightness, exposure (menu 0-3 and time), focus (auto and absolute); no white balance, no torch.
    static let webcam: [UInt32: V4L2ControlInfo] = [
        ControlID.brightness: control(ControlID.brightness, -64, 64, default: 5, name: "Brightness"),
        ControlID.exposureAuto: control(ControlID.exposureAuto, 0, 3, default: 3),
        ControlID.exposureAbsolute: control(ControlID.exposureAbsolute, 3, 2047, default: 156, name: "Exposure Time, Absolute"),
        ControlID.focusAuto: control(ControlID.focusAuto, 0, 1, default: 1),
        ControlID.focusAbsolute: control(ControlID.focusAbsolute, 0, 1023, name: "Focus, Absolute"),
    ]

    @Test("values: the mode before the value (manual exposure, auto-focus off), auto picks the camera's automatic mode, brightness auto is its default")
    func values() {
        let plan = ControlPlan([.exposure: .value(200), .focus: .value(300), .brightness: .auto], lookup: { Self.webcam[$0] })
        #expect(plan.problems.isEmpty)
        #expect(plan.values.map(\.id) == [ControlID.exposureAuto, ControlID.exposureAbsolute, ControlID.brightness,
                                          ControlID.focusAuto, ControlID.focusAbsolute])
        #expect(plan.values.map(\.value) == [1, 200, 5, 0, 300])
        let auto = ControlPlan([.exposure: .auto, .focus: .auto], lookup: { Self.webcam[$0] })
        #expect(auto.values.map(\.value) == [3, 1])
    }

    @Test("a control the camera lacks or a value outside its range is a problem naming both; the others are still planned")
    func problems() {
        let plan = ControlPlan([.whiteBalance: .auto, .brightness: .value(900), .focus: .value(10), .torch: .value(1)],
                               lookup: { Self.webcam[$0] })
        #expect(plan.problems == [
            "camera.white-balance = auto: this camera has no White Balance, Automatic control",
            "camera.brightness = 900: out of this camera's Brightness range -64…64",
            "camera.torch = on: this camera has no LED Mode (torch) control",
        ])
        #expect(plan.values.map(\.id) == [ControlID.focusAuto, ControlID.focusAbsolute])
        // A fixed white balance on a camera without the automatic switch: only the temperature.
        var camera = Self.webcam
        camera[ControlID.whiteBalanceTemperature] = Self.control(ControlID.whiteBalanceTemperature, 2800, 6500)
        let fixed = ControlPlan([.whiteBalance: .value(4000)], lookup: { camera[$0] })
        #expect(fixed.problems.isEmpty && fixed.values.map(\.id) == [ControlID.whiteBalanceTemperature])
    }
}
