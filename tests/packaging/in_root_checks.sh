#!/bin/sh
# Run inside the clean root (clean_root_install_test.sh): the installed programs start and do
# their work. On failure, ldd says which library the program could not load.
set -u
failed=0
check() {  # check ELF EXPECTED COMMAND...: COMMAND exits 0 and prints EXPECTED; else ldd ELF
  elf=$1 expected=$2
  shift 2
  if out=$("$@" 2>&1) && printf '%s\n' "$out" | grep -q "$expected"; then
    echo "ok: $*"
  else
    echo "FAIL: $* (expected '$expected'):"
    printf '%s\n' "$out" | tail -20
    echo "ldd $elf inside the root:"
    ldd "$elf" 2>&1 | sed 's/^/  /'
    failed=1
  fi
}
sample=/usr/share/spillway/samples/lessons/small-gpt.profile.json
check /usr/bin/spillway-cli '^Peak ' spillway-cli info "$sample"
check /usr/bin/spillway 'Spillway [0-9]' env QT_QPA_PLATFORM=offscreen spillway --version
check /usr/bin/spillway-replay '[0-9]\.[0-9]' spillway-replay --version
check /usr/bin/spillway-calibrate '[0-9]\.[0-9]' spillway-calibrate --version
module=$(ls /usr/lib/python3/dist-packages/spillway/_spillway*.so 2>/dev/null | head -1)
if [ -n "$module" ]; then
  check "$module" 'kernels 390' python3 -c \
    "import spillway; print('kernels', len(spillway.load_profile('$sample').kernels))"
fi
exit $failed
