// CFontconfig: fontconfig for Swift (the font for text DejaVu Sans cannot show, e.g. Noto Sans CJK).
#pragma once
#include <fontconfig/fontconfig.h>
