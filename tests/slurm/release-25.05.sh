# release-25.05.sh (Slurm): tests/slurm/release.sh on Slurm 25.05.
MBS_SLURM_RELEASE=25.05
. "${top_srcdir:-.}/tests/slurm/release.sh"
