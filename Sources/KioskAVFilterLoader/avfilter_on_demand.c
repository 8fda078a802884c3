// libavfilter loaded when the first filter graph is made (../CFFmpeg/avfilter_on_demand.h says why).
// Each pointer has the type of libavfilter's own declaration (__typeof__), so a call here cannot
// disagree with the headers the rest of KioskMedia is built against.
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <libavutil/macros.h>
#include "../CFFmpeg/avfilter_on_demand.h"

#define KIOSK_AVFILTER_CALLS(X) \
    X(avfilter_graph_alloc) X(avfilter_graph_free) X(avfilter_get_by_name) X(avfilter_graph_create_filter) \
    X(avfilter_inout_alloc) X(avfilter_inout_free) X(avfilter_graph_parse_ptr) X(avfilter_graph_config) \
    X(av_buffersrc_add_frame_flags) X(av_buffersink_get_frame) X(av_buffersink_set_frame_size)

#define KIOSK_POINTER(name) __typeof__(name) *name;
static struct { KIOSK_AVFILTER_CALLS(KIOSK_POINTER) } calls;
static const char *failure;
static char failureText[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    // The soname of the major version the headers are (libavfilter.so.8 for FFmpeg 5.1); never
    // closed: its filters stay in use until the process ends. RTLD_LOCAL: nothing else binds to it.
    void *library = dlopen("libavfilter.so." AV_STRINGIFY(LIBAVFILTER_VERSION_MAJOR), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(failureText, sizeof failureText, "%s", why ? why : "libavfilter: dlopen failed");
        failure = failureText;
        return;
    }
#define KIOSK_LOOKUP(name) \
    if (!(calls.name = (__typeof__(name) *)dlsym(library, #name))) { \
        snprintf(failureText, sizeof failureText, "libavfilter has no %s", #name); \
        failure = failureText; \
        return; \
    }
    KIOSK_AVFILTER_CALLS(KIOSK_LOOKUP)
}

const char *kiosk_avfilter_load(void) {
    pthread_once(&once, load);
    return failure;
}

AVFilterGraph *kiosk_avfilter_graph_alloc(void) { return calls.avfilter_graph_alloc(); }
void kiosk_avfilter_graph_free(AVFilterGraph **graph) { calls.avfilter_graph_free(graph); }
const AVFilter *kiosk_avfilter_get_by_name(const char *name) { return calls.avfilter_get_by_name(name); }
int kiosk_avfilter_graph_create_filter(AVFilterContext **made, const AVFilter *filter, const char *name, const char *arguments,
                                       void *opaque, AVFilterGraph *graph) {
    return calls.avfilter_graph_create_filter(made, filter, name, arguments, opaque, graph);
}
AVFilterInOut *kiosk_avfilter_inout_alloc(void) { return calls.avfilter_inout_alloc(); }
void kiosk_avfilter_inout_free(AVFilterInOut **inout) { calls.avfilter_inout_free(inout); }
int kiosk_avfilter_graph_parse_ptr(AVFilterGraph *graph, const char *text, AVFilterInOut **inputs, AVFilterInOut **outputs, void *log) {
    return calls.avfilter_graph_parse_ptr(graph, text, inputs, outputs, log);
}
int kiosk_avfilter_graph_config(AVFilterGraph *graph, void *log) { return calls.avfilter_graph_config(graph, log); }
int kiosk_av_buffersrc_add_frame_flags(AVFilterContext *source, AVFrame *frame, int flags) {
    return calls.av_buffersrc_add_frame_flags(source, frame, flags);
}
int kiosk_av_buffersink_get_frame(AVFilterContext *sink, AVFrame *frame) { return calls.av_buffersink_get_frame(sink, frame); }
void kiosk_av_buffersink_set_frame_size(AVFilterContext *sink, unsigned size) { calls.av_buffersink_set_frame_size(sink, size); }
