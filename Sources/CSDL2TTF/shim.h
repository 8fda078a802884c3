// CSDL2TTF: SDL2_ttf for Swift (text for the overlay). Everything it needs imports as is.
#pragma once
#include <SDL2/SDL_ttf.h>
