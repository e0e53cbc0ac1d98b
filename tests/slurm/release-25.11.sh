# release-25.11.sh (Slurm): tests/slurm/release.sh on Slurm 25.11.
MBS_SLURM_RELEASE=25.11
. "${top_srcdir:-.}/tests/slurm/release.sh"
