#!/bin/sh
# spillway-capture -o OUT.profile.json [options] -- PROGRAM [ARGS...]
# Runs PROGRAM with libspillway_capture.so injected into its CUDA driver (CUDA_INJECTION64_PATH)
# and writes what its GPU did as a Spillway profile. docs/capture.md.
set -eu

usage() {
    cat <<'USAGE'
usage: spillway-capture -o OUT.profile.json [--model NAME] [--no-um] [--no-nvtx] [--buffer-mb N] [--records FILE] [--force] -- PROGRAM [ARGS...]

Records the kernels (with durations), GPU allocations and frees, memcpy/memset and unified-memory
page faults and migrations, NVTX ranges and kernel launch times of PROGRAM through CUPTI, and
writes a spillway.profile/1 file.

  -o, --output FILE   the profile to write (refuses an existing file without --force)
  --model NAME        the model name stored in the profile (default: the file name)
  --no-um             do not record unified-memory counters (less overhead; where the driver
                      refuses them the capture goes on without, and the profile says why)
  --no-nvtx           do not record NVTX ranges and launch times (phases then come from kernel
                      names only)
  --buffer-mb N       CUPTI activity buffer size in MiB (default 8)
  --records FILE      also write every record (kernels, copies, allocations, each page fault and
                      migration with its address) as CSV to FILE
  --force             overwrite OUT if it exists
Environment passed to the program: CUDA_INJECTION64_PATH, SPILLWAY_CAPTURE_OUTPUT,
SPILLWAY_CAPTURE_MODEL, SPILLWAY_CAPTURE_UM, SPILLWAY_CAPTURE_NVTX, SPILLWAY_CAPTURE_BUFFER_MB,
SPILLWAY_CAPTURE_RECORDS and,
unless already set, NVTX_INJECTION64_PATH (libcupti: CUPTI sees NVTX calls only through it).
USAGE
}

die() { echo "spillway-capture: $*" >&2; exit 2; }

output="" model="" um=1 nvtx=1 buffer="" records="" force=0
while [ $# -gt 0 ]; do
    case "$1" in
        -o|--output) [ $# -ge 2 ] || die "$1 needs a file name"; output="$2"; shift 2 ;;
        --model) [ $# -ge 2 ] || die "--model needs a name"; model="$2"; shift 2 ;;
        --no-um) um=0; shift ;;
        --no-nvtx) nvtx=0; shift ;;
        --buffer-mb) [ $# -ge 2 ] || die "--buffer-mb needs a number"; buffer="$2"; shift 2 ;;
        --records) [ $# -ge 2 ] || die "--records needs a file name"; records="$2"; shift 2 ;;
        --force) force=1; shift ;;
        -h|--help) usage; exit 0 ;;
        --) shift; break ;;
        *) die "unknown option '$1' (the program to run comes after --; see --help)" ;;
    esac
done
[ -n "$output" ] || die "no output file: give -o OUT.profile.json (see --help)"
[ $# -gt 0 ] || die "no program to run after -- (see --help)"
if [ -e "$output" ] && [ "$force" -ne 1 ]; then
    die "$output exists; not overwriting it (use --force)"
fi
outdir=$(dirname -- "$output")
[ -d "$outdir" ] || die "cannot write $output: no folder $outdir"
[ -w "$outdir" ] || die "cannot write $output: folder $outdir is not writable"
if [ "$force" -eq 1 ]; then rm -f -- "$output"; fi
case "$buffer" in ''|*[!0-9]*) [ -z "$buffer" ] || die "--buffer-mb wants a whole number of MiB, not '$buffer'" ;; esac

# The library: $SPILLWAY_CAPTURE_LIBRARY, else beside this script (build tree), else the
# installed lib/spillway/ next to bin/.
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
library="${SPILLWAY_CAPTURE_LIBRARY:-}"
for candidate in "$here/libspillway_capture.so" "$here/../lib/spillway/libspillway_capture.so" \
                 "@CMAKE_INSTALL_PREFIX@/lib/spillway/libspillway_capture.so"; do
    [ -n "$library" ] && break
    [ -f "$candidate" ] && library="$candidate"
done
[ -n "$library" ] && [ -f "$library" ] || die "libspillway_capture.so not found (set SPILLWAY_CAPTURE_LIBRARY)"

CUDA_INJECTION64_PATH="$library"
SPILLWAY_CAPTURE_OUTPUT=$(CDPATH= cd -- "$outdir" && pwd)/$(basename -- "$output")
SPILLWAY_CAPTURE_UM="$um"
SPILLWAY_CAPTURE_NVTX="$nvtx"
export CUDA_INJECTION64_PATH SPILLWAY_CAPTURE_OUTPUT SPILLWAY_CAPTURE_UM SPILLWAY_CAPTURE_NVTX
# NVTX ranges reach CUPTI only when the NVTX library loads libcupti as its tool; another tool
# (Nsight Systems) may already hold that place, and then keeps it.
if [ "$nvtx" -eq 1 ] && [ -z "${NVTX_INJECTION64_PATH:-}" ]; then
    cupti="${SPILLWAY_CAPTURE_CUPTI:-@SPILLWAY_CUPTI_LOCATION@}"
    if [ -f "$cupti" ]; then
        NVTX_INJECTION64_PATH="$cupti"
        export NVTX_INJECTION64_PATH
    else
        echo "spillway-capture: libcupti not found at '$cupti' (set SPILLWAY_CAPTURE_CUPTI): NVTX ranges are not recorded" >&2
    fi
fi
[ -z "$model" ] || { SPILLWAY_CAPTURE_MODEL="$model"; export SPILLWAY_CAPTURE_MODEL; }
[ -z "$buffer" ] || { SPILLWAY_CAPTURE_BUFFER_MB="$buffer"; export SPILLWAY_CAPTURE_BUFFER_MB; }
if [ -n "$records" ]; then
    recdir=$(dirname -- "$records")
    [ -d "$recdir" ] && [ -w "$recdir" ] || die "cannot write $records: no writable folder $recdir"
    SPILLWAY_CAPTURE_RECORDS=$(CDPATH= cd -- "$recdir" && pwd)/$(basename -- "$records")
    export SPILLWAY_CAPTURE_RECORDS
fi
exec "$@"
