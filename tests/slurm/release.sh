# release.sh: the Slurm suites (parity, jobdiff, submit, rest, sweep,
# status, endstates, logs, logpaths, chain, resilience, verify, hostile,
# site) on a cluster of the release in MBS_SLURM_RELEASE, one cluster per
# suite; sourced by tests/slurm/release-X.Y.sh.  Fails if one fails; skips (77) if all skip
# (no build of that release: MBS_SLURM_BUILDS, or not root).
# MBS_SLURM_RELEASE_TESTS=no skips it (the distchecks of .ci/run: the
# first `make check` ran it already); MBS_RELEASE_SUITES names the suites
# to run (default: all thirteen; release-24.11.sh and -25.05.sh run fewer).
export MBS_SLURM_RELEASE
if [ "${MBS_SLURM_RELEASE_TESTS:-yes}" = no ]; then
	echo "SKIP: MBS_SLURM_RELEASE_TESTS=no"
	exit 77
fi
rc=77
for suite in ${MBS_RELEASE_SUITES:-parity jobdiff submit rest sweep status endstates logs logpaths chain resilience verify hostile site}; do
	echo "=== $suite.sh on Slurm $MBS_SLURM_RELEASE"
	sh "${top_srcdir:-.}/tests/slurm/$suite.sh"
	case $? in
	0) [ $rc -eq 77 ] && rc=0 ;;
	77) ;;
	*) rc=1 ;;
	esac
done
exit $rc
