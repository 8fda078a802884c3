// CQRencode: libqrencode, the share screen's QR codes (KioskUI's QRCode).
#pragma once
#include <qrencode.h>
