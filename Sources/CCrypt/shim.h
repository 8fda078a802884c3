// CCrypt: libxcrypt (crypt_r, crypt_gensalt_rn) for Swift: the console's password as a yescrypt hash.
#pragma once
#include <crypt.h>
