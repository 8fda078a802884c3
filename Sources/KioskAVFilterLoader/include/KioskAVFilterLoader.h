// Nothing to import here: the calls this target defines are declared, with libavfilter's types, in
// CFFmpeg's avfilter_on_demand.h, the one module Swift sees them through (the types of one header
// imported by two modules would be two types to Swift).
#pragma once
