// CSDL2TTF: SDL2_ttf for Swift (text for the overlay). Everything it needs imports as is.
#pragma once
#include <SDL2/SDL_ttf.h>

// TTF_GetError is a macro for SDL_GetError.
static inline const char *kiosk_TTF_GetError(void) { return TTF_GetError(); }
