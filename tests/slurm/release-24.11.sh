# release-24.11.sh (Slurm): tests/slurm/release.sh on Slurm 24.11.
MBS_SLURM_RELEASE=24.11
. "${top_srcdir:-.}/tests/slurm/release.sh"
