#!/usr/bin/env bash
# Runs every named pipeline of fp-opt, in several configurations, over every
# .mlir input of the tests (test/**/*.mlir, test/**/Inputs, examples/) with an
# old and a new fp-opt binary, and diffs what they print (stdout, stderr and
# exit status; the GPU serialization's LLVMIRToISATimeInMs, a measured time,
# is masked). For refactorings that must not change any output.
#
#   scripts/compare-pipeline-outputs.sh OLD_FP_OPT NEW_FP_OPT [WORK_DIR]
#
# Each configuration is "old arguments|new arguments": the old binary gets
# the options as they were spelled before a rename (cpu=, chip=,
# generation=), the new one the spelling it documents (target=). The last
# line is "N runs, N identical, N different"; the exit status is 0 only
# when every run is identical. JOBS (default 2) runs that many at once;
# FILTER (an extended regex) keeps only the inputs whose path matches,
# CONFIG_FILTER only the configurations whose text matches. SAME_SPELLING=1
# gives the old binary the new spelling too (an old binary that already
# knows target=, whose deprecated aliases would warn).
set -uo pipefail
OLD="${1:?old fp-opt}"
NEW="${2:?new fp-opt}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${3:-$(mktemp -d /tmp/fp-opt-compare.XXXXXX)}"
JOBS="${JOBS:-2}"
mkdir -p "$WORK"

AMP=--lowp-auto-mixed-precision
CONFIGS=(
  # The decisions alone.
  "$AMP=target=sm_90|$AMP=target=sm_90"
  "$AMP=target=sm_90 policy=fp8|$AMP=target=sm_90 policy=fp8"
  # Each lowering on the inputs as they are (most tests' own inputs are
  # already decided).
  "--lowp-pipeline-x86=cpu=avx2|--lowp-pipeline-x86=target=avx2"
  "--lowp-pipeline-x86=cpu=avx512bf16 threads=4|--lowp-pipeline-x86=target=avx512bf16 threads=4"
  "--lowp-pipeline-x86=cpu=sapphirerapids amx=true prepack=true|--lowp-pipeline-x86=target=sapphirerapids amx=true prepack=true"
  "--lowp-pipeline-nvvm=chip=sm_80|--lowp-pipeline-nvvm=target=sm_80"
  "--lowp-pipeline-nvvm=chip=sm_90 calling-convention=device|--lowp-pipeline-nvvm=target=sm_90 calling-convention=device"
  "--lowp-pipeline-rocdl=chip=gfx90a|--lowp-pipeline-rocdl=target=gfx90a"
  "--lowp-pipeline-rocdl=chip=gfx942|--lowp-pipeline-rocdl=target=gfx942"
  "--lowp-pipeline-rocdl=chip=gfx950 threads=64|--lowp-pipeline-rocdl=target=gfx950 threads=64"
  "--lowp-pipeline-tpu=generation=tpu-v5e|--lowp-pipeline-tpu=target=tpu-v5e"
  "--lowp-pipeline-tpu=generation=tpu-v6e|--lowp-pipeline-tpu=target=tpu-v6e"
  # The TPU pipeline without an option takes the module's lowp.target.
  "--lowp-pipeline-tpu|--lowp-pipeline-tpu"
  # Decisions, then the lowering for the same chip.
  "$AMP=target=avx512bf16 --lowp-pipeline-x86=cpu=avx512bf16|$AMP=target=avx512bf16 --lowp-pipeline-x86=target=avx512bf16"
  "$AMP=target=sm_90 policy=fp8 --lowp-pipeline-nvvm=chip=sm_90|$AMP=target=sm_90 policy=fp8 --lowp-pipeline-nvvm=target=sm_90"
  "$AMP=target=gfx90a --lowp-pipeline-rocdl=chip=gfx90a|$AMP=target=gfx90a --lowp-pipeline-rocdl=target=gfx90a"
  "$AMP=target=gfx942 policy=fp8 --lowp-pipeline-rocdl=chip=gfx942|$AMP=target=gfx942 policy=fp8 --lowp-pipeline-rocdl=target=gfx942"
  "$AMP=target=gfx950 --lowp-pipeline-rocdl=chip=gfx950|$AMP=target=gfx950 --lowp-pipeline-rocdl=target=gfx950"
  "$AMP=target=gfx950 policy=fp8 --lowp-pipeline-rocdl=chip=gfx950|$AMP=target=gfx950 policy=fp8 --lowp-pipeline-rocdl=target=gfx950"
  "$AMP=target=tpu-v5e --lowp-pipeline-tpu|$AMP=target=tpu-v5e --lowp-pipeline-tpu"
  "$AMP=target=tpu-v6e --lowp-pipeline-tpu=generation=tpu-v6e|$AMP=target=tpu-v6e --lowp-pipeline-tpu=target=tpu-v6e"
  # Errors: an unknown chip.
  "--lowp-pipeline-nvvm=chip=sm_1|--lowp-pipeline-nvvm=target=sm_1"
  "--lowp-pipeline-rocdl=chip=gfx1|--lowp-pipeline-rocdl=target=gfx1"
  "--lowp-pipeline-tpu=generation=tpu-v1|--lowp-pipeline-tpu=target=tpu-v1"
)

# CONFIGS_FILE replaces the list above with its lines ("old|new", $AMP
# expanded; # comments): e.g. to give the new binary options that switch
# off a feature the old one lacks, so that only the rest is compared.
if [ -n "${CONFIGS_FILE:-}" ]; then
  mapfile -t CONFIGS < <(grep -v -e '^ *#' -e '^ *$' "$CONFIGS_FILE" |
                         sed "s|\$AMP|$AMP|g")
fi

# CONFIG_FILTER (an extended regex) keeps only the configurations whose
# "old|new" text matches.
if [ -n "${CONFIG_FILTER:-}" ]; then
  kept=()
  for c in "${CONFIGS[@]}"; do
    if grep -qE -- "$CONFIG_FILTER" <<<"$c"; then kept+=("$c"); fi
  done
  CONFIGS=("${kept[@]}")
fi

mapfile -t INPUTS < <(cd "$ROOT" && find test examples -name '*.mlir' | sort |
                      grep -E "${FILTER:-.}")

# One job per (configuration, input): "index<TAB>input".
jobs_file="$WORK/jobs"
: >"$jobs_file"
for i in "${!CONFIGS[@]}"; do
  for input in "${INPUTS[@]}"; do
    printf '%s\t%s\n' "$i" "$input" >>"$jobs_file"
  done
done

run_one() {
  local i="$1" input="$2"
  local config="${CONFIGS[$i]}"
  local key
  key="$i.$(echo "$input" | tr '/' '_')"
  local side args bin
  for side in old new; do
    if [ "$side" = old ] && [ "${SAME_SPELLING:-0}" != 1 ]; then
      args="${config%%|*}"; bin="$OLD"
    elif [ "$side" = old ]; then args="${config#*|}"; bin="$OLD"
    else args="${config#*|}"; bin="$NEW"; fi
    # The arguments are words, except that an option's value may hold
    # spaces: "--x=a b --y=c" is split at " --".
    local -a argv=()
    local rest="$args"
    while [ -n "$rest" ]; do
      local word="${rest%% --*}"
      argv+=("$word")
      [ "$word" = "$rest" ] && break
      rest="--${rest#* --}"
    done
    (cd "$ROOT" && timeout 120 "$bin" --split-input-file "$input" "${argv[@]}" \
       >"$WORK/$key.$side.out" 2>"$WORK/$key.$side.err")
    echo "rc=$?" >>"$WORK/$key.$side.out"
    # The GPU serialization records how long it took; nothing else in the
    # outputs may differ.
    sed -i -e 's/LLVMIRToISATimeInMs = [0-9]*/LLVMIRToISATimeInMs = T/g' \
      "$WORK/$key.$side.out"
    # A crash's stack dump names the binary and its addresses: compared
    # without them (that both crash, and where, is still compared).
    sed -i -e '/^ *#[0-9]* 0x[0-9a-f]* /d' -e '/^[0-9]*\.\tProgram arguments: /d' \
      "$WORK/$key.$side.err"
  done
  if cmp -s "$WORK/$key.old.out" "$WORK/$key.new.out" &&
     cmp -s "$WORK/$key.old.err" "$WORK/$key.new.err"; then
    echo "same $i $input"
    rm -f "$WORK/$key".{old,new}.{out,err}
  else
    echo "DIFF $i $input  (${CONFIGS[$i]})"
  fi
}
export -f run_one
export OLD NEW WORK ROOT SAME_SPELLING
export CONFIGS_SERIALIZED
CONFIGS_SERIALIZED="$(printf '%s\n' "${CONFIGS[@]}")"

# Bash arrays do not cross `export`; the workers rebuild CONFIGS.
xargs -P "$JOBS" -L 1 bash -c '
  mapfile -t CONFIGS <<<"$CONFIGS_SERIALIZED"
  run_one "$0" "$1"' <"$jobs_file" >"$WORK/results"

runs=$(wc -l <"$WORK/results")
same=$(grep -c '^same ' "$WORK/results")
diff=$(grep -c '^DIFF ' "$WORK/results")
grep '^DIFF ' "$WORK/results" | head -n 50
echo "outputs in $WORK (identical ones deleted)"
echo "$runs runs, $same identical, $diff different"
[ "$diff" -eq 0 ] && [ "$runs" -gt 0 ]
