// CSDL2: SDL2 for Swift, plus what Swift cannot import from SDL's headers.
#pragma once
#include <SDL2/SDL.h>

// SDL_WINDOWPOS_CENTERED / _UNDEFINED are function-like macro expansions Swift cannot import.
static inline int kiosk_SDL_WINDOWPOS_CENTERED(void) { return (int)SDL_WINDOWPOS_CENTERED; }
static inline int kiosk_SDL_WINDOWPOS_UNDEFINED(void) { return (int)SDL_WINDOWPOS_UNDEFINED; }
// SDL_BUTTON(x) is a macro; SDL_TOUCH_MOUSEID is a cast macro (mouse events synthesised from touch).
static inline Uint32 kiosk_SDL_BUTTON_LMASK(void) { return SDL_BUTTON_LMASK; }
static inline Uint32 kiosk_SDL_TOUCH_MOUSEID(void) { return SDL_TOUCH_MOUSEID; }
// SDL_MUSTLOCK is a macro; surfaces must be locked before touching pixels when it says so.
static inline int kiosk_SDL_MUSTLOCK(SDL_Surface *s) { return SDL_MUSTLOCK(s) ? 1 : 0; }
