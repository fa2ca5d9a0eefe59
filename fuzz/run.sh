#!/usr/bin/env bash
# Run every fuzz target (or the ones named) for a bounded time each, on the stable toolchain.
#
#   fuzz/run.sh                 # every target, 60 seconds each
#   fuzz/run.sh 300             # every target, 5 minutes each
#   fuzz/run.sh 60 gate from_json
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`). Builds with `--sanitizer none` (the only choice
# on stable) and with debug assertions, so that an arithmetic overflow is a crash too.
#
# Targets (fuzz/fuzz_targets/):
#   text_fast_path  is_valid_json / check_json agree with parse + is_valid / validate (12 tools)
#   from_json       from_json, from_json_with under random limits, typed round trip
#   gate            every envelope: no panic, stages as parse_with says, arguments in a reply
#                   accepted exactly when they pass on their own
#   compiler        diagnose_text / compile_text on arbitrary schema text: diagnostics, never a panic
#   differential    our verdict against the jsonschema crate's on structured instances
#   stream          Tool::stream at a fuzzed chunking agrees with is_valid_json (12 tools): never
#                   dead on a valid text, finish exact, the death offset independent of chunking
#   stream_gate     a call's fuzzed arguments in an event stream of each format, cut and pushed at
#                   fuzzed places: accepted exactly when the whole-reply gate accepts the same call
#
# The committed seeds are in fuzz/seeds/<target>/ and are only read; what libFuzzer adds goes to
# fuzz/corpus/<target>/ (ignored by git). A crash stops that target, leaves the input in
# fuzz/artifacts/<target>/, and makes the script exit non-zero after the other targets ran;
# reproduce with `cargo fuzz run --sanitizer none -a <target> <file>` and turn it into a
# regression test (tests/tests/adversarial.rs or tests/tests/gate_adversarial.rs).
set -u
cd "$(dirname "$0")"

seconds="${1:-60}"
shift || true
all=(text_fast_path from_json gate compiler differential stream stream_gate)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=("${all[@]}")
fi

cargo fuzz build --sanitizer none -a || exit 1

failed=()
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "seeds/$t"
    echo "== $t: ${seconds}s"
    # -rss_limit_mb: the compiler may build large automata; -max_len: replies up to 64 KiB.
    if ! cargo fuzz run --sanitizer none -a "$t" "corpus/$t" "seeds/$t" -- \
        -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=4096 -timeout=30 -print_final_stats=1; then
        failed+=("$t")
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: findings in: ${failed[*]} (see fuzz/artifacts/)"
    exit 1
fi
echo "fuzz: ${targets[*]}: ${seconds}s each, no finding"
