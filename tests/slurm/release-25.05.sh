# release-25.05.sh (Slurm): tests/slurm/release.sh on Slurm 25.05.
MBS_SLURM_RELEASE=25.05
# status.sh skips here (no MariaDB plugin in this build); logs.sh and
# chain.sh run on 24.11 and 25.11 (and 22.05), which bracket it.
: "${MBS_RELEASE_SUITES:=parity submit rest sweep}"
. "${top_srcdir:-.}/tests/slurm/release.sh"
