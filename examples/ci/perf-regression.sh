#!/usr/bin/env bash
# Performance-regression check for any CI system: profile the base and the head build a few
# times each with rocprof-rs, compare them with `rocprof-rs diff`, and leave the reports (markdown
# for a pull-request comment, JUnit for the CI's test view, JSON) and the traces in $OUT.
#
# Usage: perf-regression.sh BASE_APP HEAD_APP [APP_ARGS...]
# Environment (all optional):
#   ROCPROF_RS   the rocprof-rs binary (default: rocprof-rs on PATH)
#   RUNS         runs per build (default 5; 3 is the least that gives the statistics something)
#   OUT          output directory (default perf-out)
#   SIMULATE     a target such as gfx942 to run on hsa-sim instead of a GPU (default: real GPU)
#   DIFF_ARGS    extra diff options, e.g. "--threshold 3 --kernel-exclude-regex warmup"
#   HEAD_ENV     VAR=VALUE words set for the head runs only (demos on hsa-sim, e.g.
#                HEAD_ENV=ROCPROF_RS_SIM_KERNEL_SCALE=saxpy=1.1 to make a kernel 10% slower)
# Exit status: diff's (0 no regression, 1 regression, 2 usage or input error), or the failing
# profiling run's.
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 BASE_APP HEAD_APP [APP_ARGS...]" >&2
    exit 2
fi
base_app=$1
head_app=$2
shift 2
rocprof=${ROCPROF_RS:-rocprof-rs}
runs=${RUNS:-5}
out=${OUT:-perf-out}
sim=()
# shellcheck disable=SC2206 # HEAD_ENV is a list of VAR=VALUE words
head_env=(${HEAD_ENV:-})
if [ -n "${SIMULATE:-}" ]; then
    sim=(--simulate "$SIMULATE")
fi

rm -rf "$out/base" "$out/head"
mkdir -p "$out/base" "$out/head"
for i in $(seq 1 "$runs"); do
    # Interleave the builds so that a change in the machine's state over time hits both alike.
    # Each run is its own database; %pid% keeps the processes of one run apart (MPI, children).
    "$rocprof" "${sim[@]}" --kernel-trace -d "$out/base" -o "run$i/%pid%" -- "$base_app" "$@" >/dev/null
    env "${head_env[@]}" "$rocprof" "${sim[@]}" --kernel-trace -d "$out/head" -o "run$i/%pid%" -- "$head_app" "$@" >/dev/null
done

status=0
# shellcheck disable=SC2086 # DIFF_ARGS is a list of options
"$rocprof" diff --base "$out/base" --head "$out/head" \
    --markdown "$out/diff.md" --junit "$out/diff.xml" --json "$out/diff.json" ${DIFF_ARGS:-} || status=$?
echo "reports: $out/diff.md $out/diff.xml $out/diff.json; traces: $out/base $out/head" >&2
exit "$status"
