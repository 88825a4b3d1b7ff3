/* rocprofiler-sdk-roctx/roctx.h: the header path of ROCm 6.2+'s ROCTx library
 * (librocprofiler-sdk-roctx.so), for programs written for rocprofv3. rocprof-rs ships the same
 * library under that name; the functions are those of ../roctx.h. Link with
 * -lrocprofiler-sdk-roctx (or -lroctx64). */
#ifndef ROCPROF_RS_ROCPROFILER_SDK_ROCTX_H
#define ROCPROF_RS_ROCPROFILER_SDK_ROCTX_H 1

/* Programs test this to tell the rocprofiler-sdk flavour (pause/resume, naming calls) apart. */
#define ROCTX_IS_ROCPROFILER_SDK 1

#include "../roctx.h"

#endif
