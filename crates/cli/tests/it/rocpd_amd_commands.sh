#!/bin/sh
# A user's script of AMD `rocpd` command lines: the usage examples `rocpd --help` prints and the
# command lines of rocprofiler-sdk's tests/rocprofv3/rocpd ctests, unchanged but for the program,
# which is $ROCPD (default: AMD's `rocpd`; `rocprof-rs rocpd` takes its place).
#
# usage: [ROCPD="rocprof-rs rocpd"] rocpd_amd_commands.sh DB0 DB1 RENAMED_DB
#   DB0, DB1    two databases of kernel-traced runs
#   RENAMED_DB  a database of a run profiled with --kernel-rename
# Run it in the directory the outputs should go to: the commands without -d write under
# ./rocpd-output-data, as AMD's rocpd does; the rest write where each line says.
set -eu
ROCPD=${ROCPD:-rocpd}
db0=$1
db1=$2
renamed=$3

# query: to the console, then two databases combined into a CSV file. (The help's first example
# names `rocpd_info_agents`, which AMD's schema does not have: its table is `rocpd_info_agent`.)
$ROCPD query -i "$db0" --query "SELECT * FROM rocpd_info_agent LIMIT 5" > query_agents.txt
$ROCPD query -i "$db0" "$db1" --query "SELECT * FROM top_kernels LIMIT 10" --format csv

# summary: console with the domain summary; per rank as CSV; no region categories; and the ctest's.
$ROCPD summary -i "$db0" --domain-summary > summary_console.txt
$ROCPD summary -i "$db0" "$db1" --summary-by-rank --format csv -d by-rank
$ROCPD summary -i "$db0" --region-categories NONE > summary_none.txt
$ROCPD summary --domain-summary --summary-by-rank -f csv -d ctest/summary -i "$db0"

# convert: one database to perfetto; two with a time window; two to every format; the ctests'.
$ROCPD convert -i "$db0" --output-format pftrace
$ROCPD convert -i "$db0" "$db1" --output-format pftrace -d "./output/" -o "twoFileTraces" --start 30% --end 100%
$ROCPD convert -i "$db0" "$db1" --output-format csv otf2 pftrace -d all-formats
$ROCPD convert -f csv --kernel-rename -d ctest/rocpd-output-data -i "$renamed"
$ROCPD convert -f perfetto --kernel-rename --group-by-queue -d ctest/rocpd-output-data-mp -o rocpd-mp-output-test -i "$renamed"
