// Input through the orientation mapping: synthesized SDL events (SDL_PushEvent) for touches,
// clicks, keys and window changes become presses of the visible buttons and the other UIInputs.
import CSDL2
import Foundation
import KioskContract
import KioskCore
import Testing
@testable import KioskUI

func push(_ event: SDL_Event) {
    var e = event
    let pushed = SDL_PushEvent(&e)
    precondition(pushed == 1, "SDL_PushEvent: \(String(cString: SDL_GetError()))")
}

func pushMouse(_ type: SDL_EventType, at p: Point, which: UInt32 = 0) {
    var e = SDL_Event()
    e.button.type = type.rawValue
    e.button.which = which
    e.button.button = UInt8(SDL_BUTTON_LEFT)
    e.button.state = UInt8(type == SDL_MOUSEBUTTONDOWN ? SDL_PRESSED : SDL_RELEASED)
    e.button.clicks = 1
    e.button.x = Int32(p.x)
    e.button.y = Int32(p.y)
    push(e)
}

func pushFinger(_ type: SDL_EventType, at p: Point, on output: Size, finger: SDL_FingerID = 7) {
    var e = SDL_Event()
    e.tfinger.type = type.rawValue
    e.tfinger.touchId = 1
    e.tfinger.fingerId = finger
    e.tfinger.x = Float(p.x / Double(output.width))
    e.tfinger.y = Float(p.y / Double(output.height))
    e.tfinger.pressure = 1
    push(e)
}

func pushKey(_ key: SDL_KeyCode, repeat: Bool = false) {
    var e = SDL_Event()
    e.key.type = SDL_KEYDOWN.rawValue
    e.key.state = UInt8(SDL_PRESSED)
    e.key.repeat = `repeat` ? 1 : 0
    e.key.keysym.sym = SDL_Keycode(key.rawValue)
    push(e)
}

/// The visible buttons of each mode, as the state machine gives them.
let visibleSets: [[Button]] = [Models.ready.buttons, Models.recording().buttons, Models.finished().buttons, Models.playing().buttons]

extension SDLTests {
    @Suite("Input")
    struct InputTests {
        @Test("a finger tap and a mouse click at a button's place on the display press it, in every orientation",
              arguments: [Size(width: 800, height: 480), Size(width: 1080, height: 1920)])
        func tapsAndClicks(output: Size) throws {
            let screen = try makeScreen(size: output)
            for orientation in Orientation.allCases {
                screen.setOrientation(orientation)
                for visible in visibleSets {
                    for button in visible {
                        let p = screen.transform.toPhysical(screen.layout.frame(of: button).center)
                        pushFinger(SDL_FINGERDOWN, at: p, on: output)
                        pushFinger(SDL_FINGERUP, at: p, on: output)
                        #expect(screen.pollEvents(visible: visible) == [.press(button)], "\(orientation.rawValue) finger on \(button)")
                        pushMouse(SDL_MOUSEBUTTONDOWN, at: p)
                        pushMouse(SDL_MOUSEBUTTONUP, at: p)
                        #expect(screen.pollEvents(visible: visible) == [.press(button)], "\(orientation.rawValue) click on \(button)")
                        #expect(screen.tap(at: p, visible: visible) == [.press(button)], "the tap command at the same place")
                    }
                }
            }
        }

        @Test("SDL's touch-synthesized mouse events are ignored, so one tap is one press")
        func touchMouseIgnored() throws {
            let output = Size(width: 800, height: 480)
            let screen = try makeScreen(size: output)
            let visible = Models.ready.buttons
            let p = screen.transform.toPhysical(screen.layout.frame(of: .start).center)
            pushFinger(SDL_FINGERDOWN, at: p, on: output)
            pushMouse(SDL_MOUSEBUTTONDOWN, at: p, which: kiosk_SDL_TOUCH_MOUSEID())
            pushFinger(SDL_FINGERUP, at: p, on: output)
            pushMouse(SDL_MOUSEBUTTONUP, at: p, which: kiosk_SDL_TOUCH_MOUSEID())
            #expect(screen.pollEvents(visible: visible) == [.press(.start)])
            pushMouse(SDL_MOUSEBUTTONDOWN, at: p, which: kiosk_SDL_TOUCH_MOUSEID())
            pushMouse(SDL_MOUSEBUTTONUP, at: p, which: kiosk_SDL_TOUCH_MOUSEID())
            #expect(screen.pollEvents(visible: visible).isEmpty)
        }

        @Test("a press needs down and up on the same visible button; a tap on no button is tapElsewhere")
        func pressRules() throws {
            let output = Size(width: 800, height: 480)
            let screen = try makeScreen(size: output, orientation: .portrait)
            let t = screen.transform, l = screen.layout
            let cancel = t.toPhysical(l.frame(of: .cancel).center), start = t.toPhysical(l.frame(of: .start).center)
            // Slid from Cancel to the record button: nothing.
            pushFinger(SDL_FINGERDOWN, at: cancel, on: output)
            pushFinger(SDL_FINGERUP, at: start, on: output)
            #expect(screen.pollEvents(visible: Models.ready.buttons).isEmpty)
            // A hidden button is not there: the tap lands on nothing.
            let useVideo = t.toPhysical(l.frame(of: .useVideo).center)
            pushMouse(SDL_MOUSEBUTTONDOWN, at: useVideo)
            pushMouse(SDL_MOUSEBUTTONUP, at: useVideo)
            let inputs = screen.pollEvents(visible: Models.ready.buttons)
            #expect(inputs.count == 1)
            if case let .tapElsewhere(p)? = inputs.first {
                #expect(l.frame(of: .useVideo).contains(p), "in canvas coordinates")
            } else {
                Issue.record("expected tapElsewhere, got \(inputs)")
            }
            // The tap command there: the same tap on the picture, in canvas coordinates.
            let tapped = screen.tap(at: useVideo, visible: Models.ready.buttons)
            if tapped.count == 1, case let .tapElsewhere(p) = tapped[0] {
                #expect(l.frame(of: .useVideo).contains(p), "\(p)")
            } else {
                Issue.record("the tap command on a hidden button: expected tapElsewhere, got \(tapped)")
            }
            // The middle of the picture while playing.
            let middle = t.toPhysical(l.content.center)
            pushFinger(SDL_FINGERDOWN, at: middle, on: output, finger: 3)
            pushFinger(SDL_FINGERUP, at: middle, on: output, finger: 3)
            let tap = screen.pollEvents(visible: Models.playing().buttons)
            #expect(tap.count == 1 && tap.first.map { if case .tapElsewhere = $0 { true } else { false } } == true)
        }

        @Test("keys press the visible button they name, and only a visible one")
        func keys() throws {
            let screen = try makeScreen(size: Size(width: 800, height: 480))
            let cases: [(SDL_KeyCode, [Button], UIInput?)] = [
                (SDLK_SPACE, Models.ready.buttons, .press(.start)),
                (SDLK_SPACE, Models.recording().buttons, .press(.stop)),
                (SDLK_SPACE, Models.finished().buttons, nil),
                (SDLK_ESCAPE, Models.ready.buttons, .press(.cancel)),
                (SDLK_ESCAPE, Models.playing().buttons, .press(.closePlayer)),
                (SDLK_ESCAPE, Models.recording().buttons, nil),
                (SDLK_RETURN, Models.finished().buttons, .press(.useVideo)),
                (SDLK_KP_ENTER, Models.finished().buttons, .press(.useVideo)),
                (SDLK_RETURN, Models.finished(success: false).buttons, nil),
                (SDLK_p, Models.finished().buttons, .press(.playVideo)),
                (SDLK_p, Models.ready.buttons, nil),
                (SDLK_r, Models.finished().buttons, .press(.retake)),
                (SDLK_r, Models.ready.buttons, nil),
                (SDLK_x, Models.ready.buttons, nil),
                (SDLK_c, Models.ready.buttons + [.switchCamera], .press(.switchCamera)),
                (SDLK_TAB, Models.ready.buttons + [.switchCamera], .press(.switchCamera)),
                (SDLK_c, Models.ready.buttons, nil),
            ]
            for (key, visible, expected) in cases {
                pushKey(key)
                #expect(screen.pollEvents(visible: visible) == (expected.map { [$0] } ?? []), "key \(key.rawValue) with \(visible)")
            }
            pushKey(SDLK_SPACE, repeat: true)
            #expect(screen.pollEvents(visible: Models.ready.buttons).isEmpty, "auto-repeat is not a second press")
        }

        @Test("quit, background and foreground, display orientation")
        func appEvents() throws {
            let screen = try makeScreen(size: Size(width: 800, height: 480))
            let window = screen.rendererHandle.window
            func send(_ type: SDL_EventType) {
                var e = SDL_Event()
                e.type = type.rawValue
                push(e)
            }
            func sendWindow(_ id: SDL_WindowEventID) {
                var e = SDL_Event()
                e.window.type = SDL_WINDOWEVENT.rawValue
                e.window.windowID = window.id
                e.window.event = UInt8(id.rawValue)
                push(e)
            }
            send(SDL_QUIT)
            #expect(screen.pollEvents(visible: []) == [.quit])
            send(SDL_APP_WILLENTERBACKGROUND)
            send(SDL_APP_DIDENTERFOREGROUND)
            #expect(screen.pollEvents(visible: []) == [.background, .foreground])
            // A window manager may hide and show a window while it first maps it: not the background.
            sendWindow(SDL_WINDOWEVENT_HIDDEN)
            sendWindow(SDL_WINDOWEVENT_SHOWN)
            #expect(screen.pollEvents(visible: []) == [], "before the first present")
            try screen.render(nil)
            sendWindow(SDL_WINDOWEVENT_MINIMIZED)
            sendWindow(SDL_WINDOWEVENT_HIDDEN)
            sendWindow(SDL_WINDOWEVENT_RESTORED)
            sendWindow(SDL_WINDOWEVENT_SHOWN)
            #expect(screen.pollEvents(visible: []) == [.background, .foreground], "one change each way")

            var e = SDL_Event()
            e.display.type = SDL_DISPLAYEVENT.rawValue
            e.display.display = UInt32(SDL_GetWindowDisplayIndex(window.handle))
            e.display.event = UInt8(SDL_DISPLAYEVENT_ORIENTATION.rawValue)
            e.display.data1 = Int32(SDL_ORIENTATION_PORTRAIT_FLIPPED.rawValue)
            push(e)
            #expect(screen.pollEvents(visible: []) == [.displayOrientation(.portraitUpsideDown)])
        }

        @Test("the window turning portrait re-lays out at once and asks for portrait")
        func windowAspectFlips() throws {
            let screen = try makeScreen(size: Size(width: 800, height: 480))
            #expect(screen.orientation == .landscapeRight)
            SDL_SetWindowSize(screen.rendererHandle.window.handle, 480, 800)
            let inputs = screen.waitEvents(timeoutMs: 100, visible: [])
            #expect(inputs == [.displayOrientation(.portrait)])
            #expect(screen.outputSize == Size(width: 480, height: 800))
            // Still landscape-right until the recorder agrees: the canvas is turned onto the new shape.
            #expect(screen.orientation == .landscapeRight && screen.layout.canvas == Size(width: 800, height: 480))
            screen.setOrientation(.portrait)
            #expect(screen.layout.canvas == Size(width: 480, height: 800) && screen.transform.quarterTurns == 0)
        }
    }
}
