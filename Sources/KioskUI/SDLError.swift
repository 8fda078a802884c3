// The one error type for SDL and SDL_ttf calls: the call and SDL_GetError's text at the time.
import CSDL2

/// An error from an SDL or SDL_ttf call, with `SDL_GetError()` captured when it happened.
public struct SDLError: Error, Equatable, CustomStringConvertible, Sendable {
    public let call: String
    public let message: String

    /// Captures `SDL_GetError()` now (SDL_ttf reports through the same buffer).
    public init(call: String) {
        self.call = call
        self.message = String(cString: SDL_GetError())
    }

    /// An error our own checks found before SDL was called (SDL_GetError would tell of an older one).
    public init(call: String, message: String) {
        self.call = call
        self.message = message
    }

    public var description: String { "\(call) failed: \(message)" }
}
