/* roctx.h: the ROCTx code-annotation API of rocprof-rs's libroctx64.so (soname libroctx64.so.4).
 *
 * Declares the same functions, with the same C ABI, as AMD's ROCTx (roctracer's roctx.h and
 * ROCm 6.2+'s rocprofiler-sdk-roctx/roctx.h), so a program built against this header runs against
 * AMD's library and one built against AMD's runs against ours. Link with -lroctx64.
 *
 * Without a profiler every call is a cheap no-op that still returns the documented values (range
 * nesting levels, process range ids, thread ids). Under `rocprof-rs --marker-trace` the calls are
 * recorded as MARKER_CORE_API / MARKER_CONTROL_API / MARKER_NAME_API records. */
#ifndef ROCPROF_RS_ROCTX_H
#define ROCPROF_RS_ROCTX_H 1

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ROCTX_VERSION_MAJOR
/* The roctracer interface version this library implements (symbol version node ROCTX_4.1). */
#define ROCTX_VERSION_MAJOR 4
#define ROCTX_VERSION_MINOR 1
#endif

/* Identifies a process range (roctxRangeStartA / roctxRangeStop). */
typedef uint64_t roctx_range_id_t;
/* An operating-system thread id (gettid()), as returned by roctxGetThreadId. */
typedef uint64_t roctx_thread_id_t;

struct hsa_agent_s;
struct ihipStream_t;

/* Interface version of the installed library. */
uint32_t roctx_version_major(void);
uint32_t roctx_version_minor(void);

/* An instantaneous event with a message. */
void roctxMarkA(const char *message);

/* Opens a range on the calling thread's stack; returns its nesting level (0 for the outermost). */
int roctxRangePushA(const char *message);
/* Closes the calling thread's innermost range; returns its level, or -1 when none was open. */
int roctxRangePop(void);

/* Opens a process range, which any thread may stop; returns its id (never 0). */
roctx_range_id_t roctxRangeStartA(const char *message);
/* Closes the process range `id`. */
void roctxRangeStop(roctx_range_id_t id);

/* Pauses / resumes data collection of the profiler (rocprof-rs --selected-regions starts paused).
 * `tid` is reserved: 0 means every thread. Return 0. */
int roctxProfilerPause(roctx_thread_id_t tid);
int roctxProfilerResume(roctx_thread_id_t tid);

/* Names the calling OS thread, an HSA agent, a HIP device or a HIP stream in the profile.
 * Return 0. */
int roctxNameOsThread(const char *name);
int roctxNameHsaAgent(const char *name, const struct hsa_agent_s *agent);
int roctxNameHipDevice(const char *name, int device_id);
int roctxNameHipStream(const char *name, const struct ihipStream_t *stream);

/* Stores the calling thread's OS id in *tid; returns 0. */
int roctxGetThreadId(roctx_thread_id_t *tid);

#ifdef __cplusplus
}
#endif

#ifndef roctxMark
#define roctxMark(message) roctxMarkA(message)
#endif
#ifndef roctxRangePush
#define roctxRangePush(message) roctxRangePushA(message)
#endif
#ifndef roctxRangeStart
#define roctxRangeStart(message) roctxRangeStartA(message)
#endif

#endif
