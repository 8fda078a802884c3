// CSDL2: SDL2 for Swift, plus what Swift cannot import from SDL's headers.
#pragma once
#include <SDL2/SDL.h>

// SDL_WINDOWPOS_CENTERED is a function-like macro expansion Swift cannot import.
static inline int kiosk_SDL_WINDOWPOS_CENTERED(void) { return (int)SDL_WINDOWPOS_CENTERED; }
// SDL_TOUCH_MOUSEID is a cast macro (it marks mouse events synthesised from touch).
static inline Uint32 kiosk_SDL_TOUCH_MOUSEID(void) { return SDL_TOUCH_MOUSEID; }
// SDL_MUSTLOCK is a macro; surfaces must be locked before touching pixels when it says so.
static inline int kiosk_SDL_MUSTLOCK(SDL_Surface *s) { return SDL_MUSTLOCK(s) ? 1 : 0; }
