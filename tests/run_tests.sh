#!/bin/sh
# run_tests.sh BUILD TEST...: run every cmocka test binary (from the
# repository root, with $WARPSIM naming the built command), then print one
# closing line "tests: N passed, N failed, N skipped" counting test cases.
build=$1; shift
pass=0; fail=0; skipped=0; bad=""; whys=""
for t in "$@"; do
    out=$(cd "$(dirname "$0")/.." && WARPSIM=$build/warpsim "$t" 2>&1); rc=$?
    p=$(printf '%s\n' "$out" | grep -c '^\[       OK \]')
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s).*/\1/p')
    s=$(printf '%s\n' "$out" | sed -n 's/^\[  SKIPPED \] \([0-9]*\) test(s).*/\1/p')
    f=${f:-0}; s=${s:-0}
    pass=$((pass + p)); fail=$((fail + f)); skipped=$((skipped + s))
    if [ $rc -ne 0 ]; then
        [ "$f" -eq 0 ] && fail=$((fail + 1))
        bad="$bad $(basename "$t")"
        printf '%s\n' "$out"
    else
        printf '%-28s %3d ok' "$(basename "$t")" "$p"
        [ "$s" -gt 0 ] && printf '  (%s skipped)' "$s"
        printf '\n'
        printf '%s\n' "$out" | grep '^skip:' | sed 's/^/    /' || true
    fi
    why=$(printf '%s\n' "$out" | grep '^skip:' | sed "s|^skip:|  $(basename "$t"):|")
    [ -n "$why" ] && whys="$whys$why
"
done
# Again at the end, where a log's tail shows them: what was not tested here, and why.
[ -n "$whys" ] && printf 'skipped here, and why:\n%s' "$whys"
[ -n "$bad" ] && echo "failing:$bad"
echo "tests: $pass passed, $fail failed, $skipped skipped"
[ $fail -eq 0 ] && [ -z "$bad" ]
