# release-24.11.sh (Slurm): tests/slurm/release.sh on Slurm 24.11.
MBS_SLURM_RELEASE=24.11
# status.sh skips here (this build's slurmdbd has no MariaDB plugin);
# chain.sh runs on 22.05 and 25.11, which bracket it; logs.sh stays: only
# v0.0.40-0.0.42 (24.11's) give an expanded output path.
: "${MBS_RELEASE_SUITES:=parity submit rest sweep logs}"
. "${top_srcdir:-.}/tests/slurm/release.sh"
