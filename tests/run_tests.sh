#!/bin/sh
# run_tests.sh BUILD TEST...: run every cmocka test binary, then print one
# closing line "tests: N passed, N failed" counting individual test cases.
build=$1; shift
pass=0; fail=0; bad=""
for t in "$@"; do
    out=$(cd "$(dirname "$0")/.." && WARPSIM=$build/warpsim "$t" 2>&1); rc=$?
    printf '%s\n' "$out" | grep -E '^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED  \]|^\[  ERROR   \]' >/dev/null
    p=$(printf '%s\n' "$out" | grep -c '^\[       OK \]')
    f=$(printf '%s\n' "$out" | grep -c '^\[  FAILED  \] [^0-9]')
    e=$(printf '%s\n' "$out" | grep -c '^\[  ERROR   \]')
    pass=$((pass + p)); fail=$((fail + f + e))
    if [ $rc -ne 0 ]; then
        [ $f -eq 0 ] && [ $e -eq 0 ] && fail=$((fail + 1))
        bad="$bad $(basename "$t")"
        printf '%s\n' "$out"
    else
        printf '%-28s %3d ok' "$(basename "$t")" "$p"
        printf '%s\n' "$out" | grep -q '^\[  SKIPPED \]' && printf '  (%s skipped)' "$(printf '%s\n' "$out" | grep -c '^\[  SKIPPED \]')"
        printf '\n'
        printf '%s\n' "$out" | grep '^skip:' || true
    fi
done
[ -n "$bad" ] && echo "failing:$bad"
echo "tests: $pass passed, $fail failed"
[ $fail -eq 0 ] && [ -z "$bad" ]
