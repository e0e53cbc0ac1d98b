#!/bin/sh
# valgrind.sh: mbsbatch under valgrind's memcheck, for make
# check-valgrind: the CLI tests run it in place of the binary (MBSBATCH).
# Any error, or a definite, indirect or possible leak, exits 99 and leaves
# the report in $VALGRIND_LOG_DIR; tests/valgrind.supp holds the only
# suppressions, each for a library outside mbsbatch, with its reason.
: "${MBSBATCH_REAL:?the mbsbatch binary to run}"
: "${VALGRIND_LOG_DIR:?a directory for the reports}"
here=$(dirname "$0")
exec valgrind --quiet --error-exitcode=99 --leak-check=full \
    --errors-for-leak-kinds=definite,indirect,possible \
    --show-leak-kinds=definite,indirect,possible \
    --suppressions="$here/valgrind.supp" \
    --log-file="$VALGRIND_LOG_DIR/vg.%p.log" \
    "$MBSBATCH_REAL" "$@"
