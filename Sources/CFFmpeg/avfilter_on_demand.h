// libavfilter on demand: the calls FilterGraph makes, each through a pointer looked up when the
// first graph is made (Sources/KioskAVFilterLoader), not bound by the dynamic loader at every start.
// Linked, libavfilter brings 30 more libraries (flite, LAPACK, Vulkan, libplacebo, rubberband…) whose
// symbols ld.so binds before main, 22 ms of CPU a start here, for a filter most booths never make.
#pragma once
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>

// Loads libavfilter (the major version these headers name) and looks up every call below, once, on
// whichever thread asks first; the others wait for that. NULL when all are there, else why not
// (dlerror's text), the same text every time after.
const char *kiosk_avfilter_load(void);
// libavfilter's own calls, of the same types; call them only after kiosk_avfilter_load gave NULL.
AVFilterGraph *kiosk_avfilter_graph_alloc(void);
void kiosk_avfilter_graph_free(AVFilterGraph **graph);
const AVFilter *kiosk_avfilter_get_by_name(const char *name);
int kiosk_avfilter_graph_create_filter(AVFilterContext **made, const AVFilter *filter, const char *name, const char *arguments,
                                       void *opaque, AVFilterGraph *graph);
AVFilterInOut *kiosk_avfilter_inout_alloc(void);
void kiosk_avfilter_inout_free(AVFilterInOut **inout);
int kiosk_avfilter_graph_parse_ptr(AVFilterGraph *graph, const char *text, AVFilterInOut **inputs, AVFilterInOut **outputs, void *log);
int kiosk_avfilter_graph_config(AVFilterGraph *graph, void *log);
int kiosk_av_buffersrc_add_frame_flags(AVFilterContext *source, AVFrame *frame, int flags);
int kiosk_av_buffersink_get_frame(AVFilterContext *sink, AVFrame *frame);
void kiosk_av_buffersink_set_frame_size(AVFilterContext *sink, unsigned size);
