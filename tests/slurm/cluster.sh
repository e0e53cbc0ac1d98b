#!/bin/sh
# tests/slurm/cluster.sh: a private Slurm cluster, all under one
# directory, on loopback, for the mbsbatch tests.  POSIX sh; run as root.
# The release is Debian's 22.05 or one of the builds of 24.11, 25.05 and
# 25.11 (MBS_SLURM_RELEASE; unpacked into STATE_DIR/sw).
#
#   cluster.sh start  STATE_DIR   build it, start it, wait until it is ready,
#                                 write STATE_DIR/env (source it with `.`)
#   cluster.sh stop   STATE_DIR   stop exactly what start started, wait until
#                                 it is gone; safe to run twice or after a
#                                 failed start
#   cluster.sh status STATE_DIR   exit 0 if every daemon runs
#
# What start builds: a private munged (own key and socket), slurmctld, four
# slurmd (mbsnode0..3, 8 fake GPUs of GRES type tesla each: char devices
# under STATE_DIR/dev),
# 64 fake DOWN nodes gpu[001-064] (8 GPUs, no slurmd, a dead port), the
# partitions `local` (default, the real nodes) and `gpu` (the fake ones, 16
# nodes at most per job), JWT, slurmrestd on TCP (JWT) and on a unix socket
# (rest_auth/local).  Ports are a free block of 10 picked at run time.
# Exit status of start: 0 ready, 1 failed (everything it started is stopped
# again), 77 Slurm not installed or not root (automake's skip status).
#
# Tunables (environment): MBS_SLURM_START_TIMEOUT (s, default 30),
# MBS_SLURM_STOP_TIMEOUT (s, default 20), MBS_SLURM_TOKEN_LIFESPAN (s,
# default 86400), MBS_SLURM_PORT_LOCK (lock file shared by all clusters on
# this machine while they pick ports, default /tmp/mbs-slurm-ports.lock),
# MBS_SLURM_RELEASE (22.05, Debian's packages, the default; 24.11, 25.05
# or 25.11: the build slurm-X.Y-debian12-amd64.tar.xz found in
# MBS_SLURM_BUILDS, default ../shared/slurm beside the source tree),
# MBS_SLURM_ACCOUNTING (yes: slurmdbd and a private MariaDB server, on
# ports of the block; 22.05 and 25.11 only, the builds with MariaDB's
# storage plugin), MBS_SLURM_MIN_JOB_AGE (slurm.conf MinJobAge: how long
# slurmctld keeps an ended job; below 60 s it also purges every
# max(10, MinJobAge) s instead of every 60 s).
# Why each setting is there: tests/slurm/README.md.

set -u
LC_ALL=C
export LC_ALL
PATH=$PATH:/usr/sbin:/sbin
export PATH
# A client with SLURM_JWT set uses auth/jwt instead of munge (srun cannot):
# no Slurm command run from here may see it.
unset SLURM_JWT

PROG=cluster.sh
NODES="mbsnode0 mbsnode1 mbsnode2 mbsnode3"
START_TIMEOUT=${MBS_SLURM_START_TIMEOUT:-30}
STOP_TIMEOUT=${MBS_SLURM_STOP_TIMEOUT:-20}
TOKEN_LIFESPAN=${MBS_SLURM_TOKEN_LIFESPAN:-86400}
LOCK=${MBS_SLURM_PORT_LOCK:-/tmp/mbs-slurm-ports.lock}
PKGS="slurmctld slurmd slurm-client slurmrestd slurm-wlm-jwt-plugin munge curl iproute2"
RELEASE=${MBS_SLURM_RELEASE:-22.05}
HERE=$(cd "$(dirname "$0")" && pwd)
BUILDS=${MBS_SLURM_BUILDS:-$HERE/../../../shared/slurm}
# What differs between releases (tests/slurm/README.md, "Releases"):
# the API versions slurmrestd serves and how it is told which, and the
# user the unix-socket slurmrestd runs as.
case $RELEASE in
22.05)
	RESTD_PLUGINS="-s openapi/v0.0.36,openapi/v0.0.37,openapi/v0.0.38"
	APIS="v0.0.36 v0.0.37 v0.0.38" ;;
24.11)	RESTD_PLUGINS="-s openapi/slurmctld"; APIS="v0.0.40 v0.0.41 v0.0.42" ;;
25.05)	RESTD_PLUGINS="-s openapi/slurmctld"
	APIS="v0.0.40 v0.0.41 v0.0.42 v0.0.43" ;;
25.11)	RESTD_PLUGINS="-s openapi/slurmctld"
	APIS="v0.0.41 v0.0.42 v0.0.43 v0.0.44" ;;
*)	printf '%s\n' "cluster.sh: MBS_SLURM_RELEASE=$RELEASE: not 22.05, 24.11, 25.05 or 25.11" >&2
	exit 2 ;;
esac
API=${APIS##* }
ACCT=${MBS_SLURM_ACCOUNTING:-no}
case $ACCT in
yes | no) ;;
*)	printf '%s\n' "cluster.sh: MBS_SLURM_ACCOUNTING=$ACCT: not yes or no" >&2
	exit 2 ;;
esac
MIN_JOB_AGE=${MBS_SLURM_MIN_JOB_AGE:-}
case $MIN_JOB_AGE in
'' | [1-9] | [1-9][0-9] | [1-9][0-9][0-9] | [1-9][0-9][0-9][0-9]) ;;
*)	printf '%s\n' "cluster.sh: MBS_SLURM_MIN_JOB_AGE=$MIN_JOB_AGE: not 1 to 9999 seconds" >&2
	exit 2 ;;
esac
# slurmrestd's accounting endpoints (/slurmdb/...) with slurmdbd.
if [ "$ACCT" = yes ]; then
	case $RELEASE in
	22.05) RESTD_PLUGINS="$RESTD_PLUGINS,openapi/dbv0.0.36,openapi/dbv0.0.37,openapi/dbv0.0.38" ;;
	*) RESTD_PLUGINS="$RESTD_PLUGINS,openapi/slurmdbd" ;;
	esac
fi
# slurmrestd drops to an unprivileged user.  25.11 cannot resolve
# "nobody"; 25.05 and later refuse a root unix-socket slurmrestd, so that
# one runs as daemon too, and serves the clients that say they are daemon.
case $RELEASE in
22.05 | 24.11) RESTD_USER=nobody RESTD_GROUP=nogroup UNIX_USER=root ;;
*) RESTD_USER=daemon RESTD_GROUP=daemon UNIX_USER=daemon ;;
esac

say() { printf '%s: %s\n' "$PROG" "$*"; }
err() { printf '%s: %s\n' "$PROG" "$*" >&2; }
die() { err "$*"; exit 1; }

usage() {
	err "usage: $PROG start|stop|status|restd-stop|restd-start|ctld-restart STATE_DIR"
	exit 2
}

# Skip (77) when Slurm is not there: say what is missing and how to get it.
check_installed() {
	# .ci/run's second distcheck (the build without libslurm): the
	# clusters ran in the first one and in make check.
	if [ "${MBS_SLURM_TESTS:-yes}" = no ]; then
		err "SKIP: MBS_SLURM_TESTS=no"
		exit 77
	fi
	missing=
	if [ "$RELEASE" != 22.05 ]; then
		tarball=$BUILDS/slurm-$RELEASE-debian12-amd64.tar.xz
		if [ ! -r "$tarball" ]; then
			err "SKIP: no Slurm $RELEASE build: $tarball (set MBS_SLURM_BUILDS)"
			exit 77
		fi
		command -v xz >/dev/null 2>&1 || missing="$missing xz"
		PKGS="munge libjwt0 libmunge2 libjson-c5 libhttp-parser2.9 libyaml-0-2 libreadline8 xz-utils curl iproute2"
	fi
	for b in munged munge unmunge curl ss flock setsid timeout; do
		command -v "$b" >/dev/null 2>&1 || missing="$missing $b"
	done
	if [ "$RELEASE" = 22.05 ]; then
		for b in slurmctld slurmd slurmrestd sbatch srun scontrol \
		    squeue sinfo scancel; do
			command -v "$b" >/dev/null 2>&1 || missing="$missing $b"
		done
		jwt=
		for f in /usr/lib/*/slurm-wlm/auth_jwt.so /usr/lib/slurm-wlm/auth_jwt.so \
		    /usr/lib/*/slurm/auth_jwt.so /usr/lib/slurm/auth_jwt.so; do
			[ -e "$f" ] && jwt=$f
		done
		[ -n "$jwt" ] || missing="$missing auth_jwt.so"
	fi
	if [ "$ACCT" = yes ]; then
		case $RELEASE in
		24.11 | 25.05)
			err "SKIP: the Slurm $RELEASE build has no MariaDB storage plugin for slurmdbd (accounting runs on 22.05 and 25.11)"
			exit 77 ;;
		esac
		PKGS="$PKGS mariadb-server"
		[ "$RELEASE" = 22.05 ] && PKGS="$PKGS slurmdbd"
		for b in mariadbd mariadb-install-db mariadb; do
			command -v "$b" >/dev/null 2>&1 || missing="$missing $b"
		done
		[ "$RELEASE" != 22.05 ] || command -v slurmdbd >/dev/null 2>&1 ||
			missing="$missing slurmdbd"
	fi
	if [ -n "$missing" ]; then
		err "SKIP: not installed:$missing"
		err "install them (as root) with:"
		err "  apt-get update && apt-get install -y --no-install-recommends $PKGS"
		exit 77
	fi
	if [ "$(id -u)" -ne 0 ]; then
		err "SKIP: must run as root (slurmd runs jobs as their users, mknod)"
		exit 77
	fi
}

# The release's commands first on PATH, and its libraries found (they
# look under /opt/slurm-X.Y otherwise); Debian's 22.05 ones stay on PATH
# behind them, and must never meet another release's daemons.
use_release() {
	[ "$RELEASE" = 22.05 ] && return 0
	PATH=$S/sw/bin:$S/sw/sbin:$PATH
	LD_LIBRARY_PATH=$S/sw/lib/slurm:$S/sw/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export PATH LD_LIBRARY_PATH
}

# Unpack the release's build into $S/sw (kept when STATE_DIR is reused).
unpack_release() {
	[ "$RELEASE" = 22.05 ] && return 0
	[ -x "$S/sw/sbin/slurmctld" ] && return 0
	rm -rf "$S/sw" "$S/sw.tmp"
	mkdir -p "$S/sw.tmp" || die "cannot create $S/sw.tmp"
	tar -xJf "$BUILDS/slurm-$RELEASE-debian12-amd64.tar.xz" -C "$S/sw.tmp" ||
		die "cannot unpack $BUILDS/slurm-$RELEASE-debian12-amd64.tar.xz"
	{ mv "$S/sw.tmp/slurm-$RELEASE" "$S/sw" && rmdir "$S/sw.tmp"; } ||
		die "unexpected layout in slurm-$RELEASE-debian12-amd64.tar.xz"
	chmod 0755 "$S/sw"
	lost=$(for f in "$S"/sw/sbin/* "$S"/sw/bin/sbatch "$S"/sw/lib/slurm/auth_jwt.so \
	    "$S"/sw/lib/slurm/rest_auth_jwt.so "$S"/sw/lib/slurm/serializer_yaml.so; do
		ldd "$f" 2>/dev/null | sed -n 's/^[[:space:]]*\([^ ]*\) => not found.*/\1/p'
	done | sort -u | tr '\n' ' ')
	[ -z "$lost" ] ||
		die "Slurm $RELEASE needs libraries this machine lacks: $lost(as root: apt-get install -y --no-install-recommends $PKGS)"
}

# alive PID STRING: PID runs, is no zombie, and its command line has STRING.
# (Killed daemons can linger as zombies here, PID 1 being no init; and the
# command line check keeps a reused PID from being taken for ours.)  During
# start the PIDs are our own children, which no other process can reuse,
# and one may not have exec'ed its daemon yet: there (OWN set) running is
# enough.
# A process lives while any of its threads does: slurmctld 25.05's main
# thread ends at SIGTERM (the leader then shows Z, and no command line)
# while the others save the state, which takes seconds; taken for dead, a
# second slurmctld would start on the state of before the save.
OWN=
alive() {
	[ -n "$1" ] && [ -r "/proc/$1/stat" ] || return 1
	live=
	for t in /proc/"$1"/task/*; do
		st=$(sed 's/.*) //' "$t/stat" 2>/dev/null | cut -c1)
		[ -n "$st" ] && [ "$st" != Z ] && { live=$t; break; }
	done
	[ -n "$live" ] || return 1
	[ -n "$OWN" ] && return 0
	# The thread may end between the two reads: no message of the shell's.
	{ tr '\0' ' ' <"$live/cmdline"; } 2>/dev/null | grep -qF -- "$2"
}

# The records of what start started: "NAME PID" lines in $S/run/pids.
# Every daemon's command line contains $S, which alive() checks.
record() { echo "$1 $2" >>"$S/run/pids"; }
pid_of() { [ -f "$S/run/pids" ] && awk -v n="$1" '$1 == n { p = $2 } END { print p }' "$S/run/pids"; }
names() { [ -f "$S/run/pids" ] && awk '{ print $1 }' "$S/run/pids"; }

# Slurm commands against this cluster only, each bounded in time.
sl() { SLURM_CONF=$S/etc/slurm.conf timeout 10 "$@"; }
# The same for readiness probes: short, so that a wait never hangs on one.
probe() { SLURM_CONF=$S/etc/slurm.conf timeout 3 "$@"; }

set_state_dir() {
	[ -n "${1:-}" ] || usage
	case $1 in
	/*) S=$1 ;;
	*) S=$(pwd -P)/$1 ;;
	esac
	S=$(printf '%s' "$S" | sed 's://*:/:g; s:/$::')
	# slurm.conf has no quoting for paths: keep them plain.
	case $S in
	*[!A-Za-z0-9._/+-]*) die "STATE_DIR must be a plain path ([A-Za-z0-9._/+-]): $S" ;;
	esac
}

# A port block: BASE slurmctld, +1 slurmrestd, +2 the fake nodes' dead port
# (nothing listens there), +3..+6 slurmd mbsnode0..3, +7 MariaDB and +8
# slurmdbd (with accounting); +9 unused.  Blocks
# are aligned to 10, below the ephemeral range, and a block is taken only if
# none of its ports appears in `ss` at all.  Since every running cluster
# listens on its BASE, a whole running block (its dead port too) is skipped.
# Concurrent starts are serialized by the lock held by start.
pick_block() {
	eph=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null)
	case $eph in '' | *[!0-9]*) eph=32768 ;; esac
	lo=10000
	hi=$((eph - 10))
	[ "$hi" -gt 30000 ] && hi=30000
	[ "$hi" -gt $((lo + 100)) ] || { lo=40000; hi=60000; }
	nblk=$(((hi - lo) / 10))
	used=$(ss -Htan 2>/dev/null | awk '{ n = split($4, a, ":"); print a[n] }' | sort -un)
	r=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
	k=$((r % nblk))
	i=0
	while [ $i -lt "$nblk" ]; do
		b=$((lo + ((k + i) % nblk) * 10))
		busy=
		for p in $used; do
			if [ "$p" -ge "$b" ] && [ "$p" -le $((b + 9)) ]; then
				busy=1
				break
			fi
		done
		case " $SKIP_BLOCKS " in *" $b "*) busy=1 ;; esac
		[ -z "$busy" ] && { echo "$b"; return 0; }
		i=$((i + 1))
	done
	return 1
}

write_config() {
	host=$(hostname -s 2>/dev/null || uname -n)
	host=${host%%.*}
	rp=$((BASE + 1))
	dead=$((BASE + 2))
	n0=$((BASE + 3))
	n3=$((BASE + 6))
	# NoInAddrAny / NoCtldInAddrAny make slurmd, srun and slurmctld bind
	# the address the host name resolves to instead of 0.0.0.0: right
	# when that is loopback.  Elsewhere they would die (no address) or
	# bind an address nobody here talks to; then leave them out: every
	# address in this cluster is 127.0.0.1 anyway, they only listen wider.
	comm=
	addrs=$(getent ahostsv4 "$host" 2>/dev/null | awk '{ print $1 }' | sort -u)
	if [ -n "$addrs" ] && ! printf '%s\n' "$addrs" | grep -qv '^127\.'; then
		comm="CommunicationParameters=NoInAddrAny,NoCtldInAddrAny"
	elif [ -z "${QUIET_CONF:-}" ]; then
		err "note: host name '$host' does not resolve to 127.x only, so slurmctld and slurmd listen on all addresses (all traffic still goes to 127.0.0.1)"
	fi
	QUIET_CONF=1
	plugindir=
	[ "$RELEASE" = 22.05 ] || plugindir="PluginDir=$S/sw/lib/slurm"
	acct="AccountingStorageType=accounting_storage/none"
	[ "$ACCT" = yes ] && acct="AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=$((BASE + 8))
AccountingStoragePass=$S/munge/munge.socket"
	minage=
	[ -n "$MIN_JOB_AGE" ] && minage="MinJobAge=$MIN_JOB_AGE"
	cat >"$S/etc/slurm.conf" <<EOF
# Written by tests/slurm/cluster.sh: a private test cluster. Do not edit.
ClusterName=mbs
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$BASE
# Default port of nodes without Port=: the fake ones.  Nothing listens there.
SlurmdPort=$dead
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# cred_expire: a requeued job waits cred_expire + 1 s before it may start
# again on a node that revoked its credential (default 120 s).
AuthInfo=socket=$S/munge/munge.socket,cred_expire=10
AuthAltTypes=auth/jwt
AuthAltParameters=jwt_key=$S/jwt/jwt_hs256.key
$comm
StateSaveLocation=$S/ctld
SlurmdSpoolDir=$S/spool/%n
SlurmctldPidFile=$S/run/slurmctld.pid
SlurmdPidFile=$S/run/slurmd-%n.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd-%n.log
PlugStackConfig=$S/etc/plugstack.conf
$plugindir
SlurmdParameters=config_overrides
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
$acct
$minage
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
EnforcePartLimits=ALL
MaxJobCount=50000
KillWait=5
ReturnToService=2
MailProg=/bin/true
# Schedule a submitted batch job on the next pass of the 1 s background
# loop, not up to 3 s after the previous pass (sbatch --wait polls 2 s,
# 10 s, 42 s after submitting: a job that starts late costs 8 s more).
# sched_interval: the main scheduling pass, which starts requeued jobs
# once they are eligible again, every 5 s rather than every 60 s.
SchedulerParameters=batch_sched_delay=0,sched_interval=5
NodeName=mbsnode[0-3] NodeAddr=127.0.0.1 Port=[$n0-$n3] CPUs=16 Sockets=2 CoresPerSocket=8 ThreadsPerCore=1 RealMemory=2000000 Gres=gpu:tesla:8 State=UNKNOWN
NodeName=gpu[001-064] NodeAddr=127.0.0.1 Port=$dead CPUs=16 Sockets=2 CoresPerSocket=8 ThreadsPerCore=1 RealMemory=2000000 Gres=gpu:tesla:8 State=DOWN Reason="fake node, no slurmd"
# A license a job may ask for (--slurm-opt licenses=mbslic:N).
Licenses=mbslic:4
PartitionName=local Nodes=mbsnode[0-3] Default=YES MaxTime=INFINITE State=UP
PartitionName=gpu Nodes=gpu[001-064] MaxNodes=16 MaxTime=INFINITE State=UP
EOF
	cat >"$S/etc/gres.conf" <<EOF
AutoDetect=off
NodeName=mbsnode[0-3] Name=gpu Type=tesla File=$S/dev/nvidia[0-7]
NodeName=gpu[001-064] Name=gpu Type=tesla Count=8
EOF
	: >"$S/etc/plugstack.conf"
	chmod 0644 "$S/etc/slurm.conf" "$S/etc/gres.conf" "$S/etc/plugstack.conf"
}

prepare_dirs() {
	mkdir -p "$S" || die "cannot create $S"
	chmod 0755 "$S" || die "cannot chmod 0755 $S"
	# munged: every directory above its socket must be world-executable.
	d=$S
	while [ "$d" != / ] && [ -n "$d" ]; do
		d=$(dirname "$d")
		perm=$(stat -c %A "$d" 2>/dev/null) || die "cannot stat $d"
		case $perm in
		?????????[xt]) ;;
		*) die "$d is not world-executable (mode $perm), which munged requires; chmod o+x it or use another STATE_DIR" ;;
		esac
	done
	for d in etc log run ctld munge rest dev spool; do
		{ mkdir -p "$S/$d" && chmod 0755 "$S/$d"; } || die "cannot create $S/$d"
	done
	for n in $NODES; do
		mkdir -p "$S/spool/$n" || die "cannot create $S/spool/$n"
	done
	{ mkdir -p "$S/jwt" && chmod 0700 "$S/jwt"; } || die "cannot create $S/jwt"
	# Keys are kept when STATE_DIR is reused.
	if [ ! -s "$S/munge/munge.key" ]; then
		(umask 077 && dd if=/dev/urandom of="$S/munge/munge.key" bs=1024 count=1 2>/dev/null) ||
			die "cannot write $S/munge/munge.key"
	fi
	chmod 0400 "$S/munge/munge.key"
	if [ ! -s "$S/jwt/jwt_hs256.key" ]; then
		(umask 077 && dd if=/dev/urandom of="$S/jwt/jwt_hs256.key" bs=32 count=1 2>/dev/null) ||
			die "cannot write $S/jwt/jwt_hs256.key"
	fi
	chmod 0600 "$S/jwt/jwt_hs256.key"
	# Fake GPUs: gres File= must name character devices, or jobs get no
	# CUDA_VISIBLE_DEVICES.  No driver is behind them; nothing opens them.
	i=0
	while [ $i -lt 8 ]; do
		if [ ! -c "$S/dev/nvidia$i" ]; then
			rm -f "$S/dev/nvidia$i"
			mknod -m 0666 "$S/dev/nvidia$i" c 195 $i ||
				die "mknod $S/dev/nvidia$i failed (needs root with CAP_MKNOD)"
		fi
		i=$((i + 1))
	done
}

# log_tail COMPONENT: the end of its log files, for error messages.
log_tail() {
	for f in "$S/log/$1.log" "$S/log/$1.out"; do
		[ -s "$f" ] || continue
		# The .out file (stderr) repeats the .log file in foreground mode.
		[ "$f" = "$S/log/$1.out" ] && [ -s "$S/log/$1.log" ] && continue
		err "--- last lines of $f:"
		tail -n 15 "$f" | sed 's/^/    /' >&2
	done
}

# Did COMPONENT fail because one of its ports was taken?
port_clash() {
	cat "$S/log/$1.log" "$S/log/$1.out" 2>/dev/null |
		grep -qi 'address already in use'
}

# The command line mark of each component (alive() looks for it).
mark_of() {
	case $1 in
	munged) echo "--socket=$S/munge/munge.socket" ;;
	mariadbd) echo "--datadir=$S/db/data" ;;
	slurmdbd) echo "$S/run/slurmdbd" ;;
	*) echo "$S/etc/slurm.conf" ;;
	esac
}

# Daemons must not keep the port lock (fd 9) or a pipe that whoever ran us
# waits on, and munged and slurmrestd do not close what they inherit: they
# are started through this, which closes every descriptor above 2 and
# execs the command (perl-base is Essential in Debian).
# shellcheck disable=SC2016
CLOSEFDS='opendir(D, "/proc/self/fd") or die "/proc/self/fd: $!\n";
my @fds = grep { /^\d+$/ && $_ > 2 } readdir(D); closedir(D);
POSIX::close($_) for @fds;
exec { $ARGV[0] } @ARGV or die "cannot run $ARGV[0]: $!\n";'
nofds() { perl -MPOSIX -e "$CLOSEFDS" -- "$@"; }

# bg NAME CMD...: start CMD in its own session, in the foreground mode of
# the daemon, so that $! is the daemon itself; record it.
bg() {
	name=$1
	shift
	setsid perl -MPOSIX -e "$CLOSEFDS" -- "$@" </dev/null >>"$S/log/$name.out" 2>&1 &
	record "$name" $!
}

# restd_tcp PORT: the TCP slurmrestd, with JWT, on 127.0.0.1:PORT.
restd_tcp() {
	bg slurmrestd-tcp env SLURM_JWT=daemon SLURM_CONF="$S/etc/slurm.conf" \
		slurmrestd -f "$S/etc/slurm.conf" -a rest_auth/jwt $RESTD_PLUGINS \
		-u "$RESTD_USER" -g "$RESTD_GROUP" "127.0.0.1:$1"
}

# The unix-socket slurmrestd (rest_auth/local: it serves the clients of
# its own uid).  As root up to 24.11, which it may be only so; as daemon
# from 25.05 on, which refuses a root one: then the socket's directory
# is daemon's.
restd_unix() {
	if [ "$UNIX_USER" = root ]; then
		bg slurmrestd-unix env SLURMRESTD_SECURITY=disable_user_check \
			SLURM_CONF="$S/etc/slurm.conf" \
			slurmrestd -f "$S/etc/slurm.conf" -a rest_auth/local \
			$RESTD_PLUGINS "unix:$S/rest/slurmrestd.sock"
	else
		chown "$UNIX_USER" "$S/rest" || die "cannot chown $S/rest"
		bg slurmrestd-unix env SLURM_CONF="$S/etc/slurm.conf" \
			slurmrestd -f "$S/etc/slurm.conf" -a rest_auth/local \
			$RESTD_PLUGINS -u "$UNIX_USER" -g "$UNIX_USER" \
			"unix:$S/rest/slurmrestd.sock"
	fi
}

# Accounting (MBS_SLURM_ACCOUNTING=yes): a private MariaDB server on
# BASE+7 (loopback only; its data under $S/db, created once and kept when
# STATE_DIR is reused) and slurmdbd on BASE+8, both up before slurmctld,
# which registers the cluster with slurmdbd as it starts.
db() { mariadb --no-defaults -S "$S/db/mysqld.sock" -u root "$@"; }

db_start() {
	# Made in data.tmp and renamed: an interrupted one is made again.
	if [ ! -d "$S/db/data" ]; then
		rm -rf "$S/db/data.tmp"
		{ mkdir -p "$S/db" && chmod 0700 "$S/db"; } || return 1
		mariadb-install-db --no-defaults --datadir="$S/db/data.tmp" --user=root \
			--auth-root-authentication-method=socket --skip-test-db \
			--innodb-log-file-size=8M >>"$S/log/mariadbd.out" 2>&1 || return 1
		mv "$S/db/data.tmp" "$S/db/data" || return 1
	fi
	bg mariadbd mariadbd --no-defaults --datadir="$S/db/data" --user=root \
		--socket="$S/db/mysqld.sock" --pid-file="$S/run/mariadbd.pid" \
		--bind-address=127.0.0.1 --port=$((BASE + 7)) --skip-name-resolve \
		--log-error="$S/log/mariadbd.log" --innodb-log-file-size=8M \
		--innodb-buffer-pool-size=16M --innodb-flush-log-at-trx-commit=2
}

# The database user slurmdbd connects as, with a new password each start,
# and slurmdbd.conf (0600: it holds the password).
db_user() {
	pw=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
	# On standard input: a command line is anyone's to read.
	printf "%s\n" "CREATE OR REPLACE USER 'slurm'@'127.0.0.1' IDENTIFIED BY '$pw';" \
		"GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';" | db || return 1
	dbhost=$(hostname -s 2>/dev/null || uname -n)
	dbhost=${dbhost%%.*}
	dbplugins=
	[ "$RELEASE" = 22.05 ] || dbplugins="PluginDir=$S/sw/lib/slurm"
	(umask 077 && cat >"$S/etc/slurmdbd.conf" <<EOF
# Written by tests/slurm/cluster.sh: the test cluster's slurmdbd. Do not edit.
AuthType=auth/munge
AuthInfo=socket=$S/munge/munge.socket
AuthAltTypes=auth/jwt
AuthAltParameters=jwt_key=$S/jwt/jwt_hs256.key
DbdHost=$dbhost
DbdAddr=127.0.0.1
DbdPort=$((BASE + 8))
SlurmUser=root
PidFile=$S/run/slurmdbd.pid
LogFile=$S/log/slurmdbd.log
$dbplugins
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$((BASE + 7))
StorageUser=slurm
StoragePass=$pw
StorageLoc=slurm_acct_db
EOF
	)
}

# slurmdbd reads slurmdbd.conf beside $SLURM_CONF, and has no option
# that names a file: it runs through a link in $S/run, so that its
# command line has $S (alive() looks for it).
dbd_start() {
	ln -sf "$(command -v slurmdbd)" "$S/run/slurmdbd" || return 1
	bg slurmdbd env SLURM_CONF="$S/etc/slurm.conf" "$S/run/slurmdbd" -D
}

# acct_start DEADLINE: MariaDB, then slurmdbd, each answering.
acct_start() {
	db_start || { fail_start mariadbd "cannot create its data directory $S/db/data"; return; }
	until db -e 'SELECT 1' >/dev/null 2>&1; do
		dc=$(dead_component) && { fail_start "$dc" "$dc died"; return; }
		[ "$(date +%s)" -lt "$1" ] ||
			{ fail_start mariadbd "no answer on $S/db/mysqld.sock within ${START_TIMEOUT}s"; return; }
		sleep 0.1
	done
	db_user || { fail_start mariadbd "cannot create the database user"; return; }
	dbd_start || { fail_start slurmdbd "cannot link $S/run/slurmdbd"; return; }
	until listens "$(pid_of slurmdbd)" $((BASE + 8)); do
		dc=$(dead_component) && { fail_start "$dc" "$dc died"; return; }
		[ "$(date +%s)" -lt "$1" ] ||
			{ fail_start slurmdbd "not listening on $((BASE + 8)) within ${START_TIMEOUT}s"; return; }
		sleep 0.1
	done
}

# The TCP slurmrestd stopped and started again on its port, for the tests
# of what a client does when it goes away (tests/slurm/sweep.sh).
do_restd() {
	rp=$(sed -n 's|^export MBS_REST_URL=http://127.0.0.1:||p' "$S/env")
	[ -n "$rp" ] || die "no REST port in $S/env"
	case $1 in
	stop)
		left=$(kill_wait TERM 10 slurmrestd-tcp) ||
			die "slurmrestd-tcp did not stop:$left"
		;;
	start)
		restd_tcp "$rp"
		i=0
		until [ "$(rest_code "http://127.0.0.1:$rp/openapi/v3")" != 000 ]; do
			i=$((i + 1))
			[ $i -lt 200 ] || die "slurmrestd-tcp did not come back on $rp"
			sleep 0.05
		done
		;;
	esac
}

# slurmctld stopped and started again (its state kept: jobs survive), for
# tests of a controller restart under a client (tests/slurm/sweep.sh).
do_ctld_restart() {
	BASE=$(sed -n 's|^export MBS_SLURM_PORT=||p' "$S/env")
	[ -n "$BASE" ] || die "no slurmctld port in $S/env"
	# 0.3 s when idle.  Under CI, with other clusters busy, a slurmctld
	# 22.05 has outlived SIGTERM by more than 60 s twice: then it is
	# killed (what a restart keeps is the test's to check), and what it
	# was doing is said.
	if ! kill_wait TERM 30 slurmctld >/dev/null; then
		p=$(pid_of slurmctld)
		echo "cluster.sh: slurmctld $p still runs 30 s after SIGTERM: killed;" \
		    "its threads: $(cat /proc/"$p"/task/*/stat 2>/dev/null |
		    sed 's/^[0-9]* (\([^)]*\)) \(.\).*/\1:\2/' | tr '\n' ' ')" >&2
		tail -n 5 "$S/log/slurmctld.log" >&2
		left=$(kill_wait KILL 10 slurmctld) ||
			die "slurmctld did not stop, even at SIGKILL:$left"
	fi
	bg slurmctld slurmctld -D -f "$S/etc/slurm.conf"
	i=0
	until listens "$(pid_of slurmctld)" "$BASE" &&
	    probe scontrol ping 2>/dev/null | grep -q 'is UP'; do
		i=$((i + 1))
		[ $i -lt 300 ] || die "slurmctld did not come back"
		sleep 0.1
	done
}

# Is any recorded component still running?
any_alive() {
	for n in $(names); do
		alive "$(pid_of "$n")" "$(mark_of "$n")" && return 0
	done
	return 1
}

# The first recorded component that has died, if any.
dead_component() {
	for n in $(names); do
		alive "$(pid_of "$n")" "$(mark_of "$n")" || { echo "$n"; return 0; }
	done
	return 1
}

# Startup failure: say which component, show its log, stop what started.
# Returns 2 (caller retries with other ports) on a port clash.
fail_start() {
	comp=$1
	shift
	if port_clash "$comp"; then
		err "$comp: a port of block $BASE is taken; trying another block"
		do_stop >/dev/null 2>&1
		return 2
	fi
	err "start failed: $comp: $*"
	log_tail "$comp"
	do_stop >/dev/null 2>&1
	err "stopped what had started; state and logs are in $S"
	exit 1
}

# listens PID PORT: PID listens on TCP PORT.
listens() {
	ss -Htlnp "sport = :$2" 2>/dev/null | grep -q "pid=$1,"
}

rest_code() {
	curl -s -o /dev/null -w '%{http_code}' --noproxy '*' --max-time 3 "$@" 2>/dev/null
}

nodes_idle() {
	out=$(probe sinfo -h -N -p local -o '%N %T' 2>/dev/null) || return 1
	[ "$(printf '%s\n' "$out" | grep -c ' idle$')" -eq 4 ]
}

# One start attempt with the current BASE.  0 ready; 2 port clash.
start_attempt() {
	rp=$((BASE + 1))
	: >"$S/run/pids"
	rm -f "$S"/run/*.pid
	for f in "$S"/log/*; do [ -f "$f" ] && : >"$f"; done
	rm -f "$S/rest/slurmrestd.sock" "$S/env"
	write_config
	deadline=$(($(date +%s) + START_TIMEOUT))

	# munged forks and exits 0 only once it serves its socket.
	nofds munged --socket="$S/munge/munge.socket" --key-file="$S/munge/munge.key" \
		--pid-file="$S/run/munged.pid" --log-file="$S/log/munged.log" \
		--seed-file="$S/munge/munged.seed" \
		</dev/null >>"$S/log/munged.out" 2>&1
	rc=$?
	mpid=$(cat "$S/run/munged.pid" 2>/dev/null)
	[ -n "$mpid" ] && record munged "$mpid"
	[ $rc -eq 0 ] || { fail_start munged "munged exited with status $rc"; return; }
	munge -n -S "$S/munge/munge.socket" 2>/dev/null |
		unmunge -S "$S/munge/munge.socket" >/dev/null 2>&1 ||
		{ fail_start munged "munge/unmunge round trip failed"; return; }

	if [ "$ACCT" = yes ]; then
		acct_start "$deadline" || return
	fi

	# A build's slurmd looks for slurmstepd under /opt/slurm-X.Y.
	STEPD=
	[ "$RELEASE" = 22.05 ] || STEPD="-d $S/sw/sbin/slurmstepd"
	tctld=$(date +%s.%N)
	bg slurmctld slurmctld -D -f "$S/etc/slurm.conf"
	while :; do
		dc=$(dead_component) && { fail_start "$dc" "$dc died"; return; }
		# Ask only once our slurmctld holds its port: a stranger on it
		# (lost race) would leave scontrol hanging.
		listens "$(pid_of slurmctld)" "$BASE" &&
			probe scontrol ping 2>/dev/null | grep -q 'is UP' && break
		[ "$(date +%s)" -lt "$deadline" ] ||
			{ fail_start slurmctld "no answer to 'scontrol ping' within ${START_TIMEOUT}s"; return; }
		sleep 0.1
	done

	for n in $NODES; do
		# shellcheck disable=SC2086
		bg "slurmd-$n" slurmd -D -f "$S/etc/slurm.conf" -N "$n" $STEPD
	done

	tok=$(sl scontrol token username=root lifespan="$TOKEN_LIFESPAN" 2>&1)
	case $tok in
	SLURM_JWT=?*) tok=${tok#SLURM_JWT=} ;;
	*) fail_start slurmctld "scontrol token failed: $tok"; return ;;
	esac
	(umask 077 && printf '%s\n' "$tok" >"$S/jwt/root.token") ||
		{ fail_start slurmctld "cannot write $S/jwt/root.token"; return; }

	# As root slurmrestd refuses to run: it binds, then drops to nobody.
	# SLURM_JWT=daemon makes it accept tokens.  No dbv0.0.3x plugins (they
	# need slurmdbd).
	restd_tcp "$rp"
	restd_unix

	ok_nodes='' ok_tcp='' ok_unix=
	while :; do
		dc=$(dead_component) && { fail_start "$dc" "$dc died"; return; }
		[ -n "$ok_nodes" ] || { nodes_idle && ok_nodes=1; }
		[ -n "$ok_tcp" ] || ! listens "$(pid_of slurmrestd-tcp)" "$rp" || {
			[ "$(rest_code -H "X-SLURM-USER-NAME: root" -H "X-SLURM-USER-TOKEN: $tok" \
				"http://127.0.0.1:$rp/slurm/$API/ping")" = 200 ] && ok_tcp=1
		}
		[ -n "$ok_unix" ] || {
			[ -S "$S/rest/slurmrestd.sock" ] &&
				[ "$(rest_code --unix-socket "$S/rest/slurmrestd.sock" \
					-H "X-SLURM-USER-NAME: $UNIX_USER" \
					"http://127.0.0.1/slurm/$API/ping")" = 200 ] && ok_unix=1
		}
		[ -n "$ok_nodes" ] && [ -n "$ok_tcp" ] && [ -n "$ok_unix" ] && break
		if [ "$(date +%s)" -ge "$deadline" ]; then
			if [ -z "$ok_nodes" ]; then
				st=$(probe sinfo -h -N -p local -o '%N=%T(%E)' 2>&1 | tr '\n' ' ')
				fail_start slurmctld "the 4 slurmd nodes were not all idle within ${START_TIMEOUT}s: $st(slurmd logs: $S/log/slurmd-*.log)"
				return
			fi
			[ -n "$ok_tcp" ] || { fail_start slurmrestd-tcp "no HTTP 200 from http://127.0.0.1:$rp/slurm/$API/ping within ${START_TIMEOUT}s"; return; }
			fail_start slurmrestd-unix "no HTTP 200 over $S/rest/slurmrestd.sock within ${START_TIMEOUT}s"
			return
		fi
		sleep 0.1
	done

	return 0
}

# The file a test sources: where the cluster is and how to reach it.
# No SLURM_JWT in it: Slurm clients that see it use JWT instead of munge,
# and srun cannot.
write_env() {
	cat >"$S/env.tmp" <<EOF
# Written by tests/slurm/cluster.sh for the cluster in $S.  Source it: . $S/env
export SLURM_CONF=$S/etc/slurm.conf
export MBS_SLURM_STATE=$S
export MBS_SLURM_PARTITION=local
export MBS_SLURM_BIG_PARTITION=gpu
export MBS_SLURM_PORT=$BASE
export MBS_REST_URL=http://127.0.0.1:$((BASE + 1))
export MBS_REST_UNIX=unix:$S/rest/slurmrestd.sock
export MBS_REST_USER=root
export MBS_JWT_FILE=$S/jwt/root.token
export MBS_SLURM_RELEASE=$RELEASE
export MBS_SLURM_API=$API
export MBS_SLURM_APIS="$APIS"
export MBS_REST_UNIX_USER=$UNIX_USER
export MBS_SLURM_ACCOUNTING=$ACCT
EOF
	if [ "$RELEASE" != 22.05 ]; then
		cat >>"$S/env.tmp" <<EOF
# Slurm $RELEASE's commands before Debian's 22.05 ones (jobs inherit it).
export MBS_SLURM_HOME=$S/sw
export PATH=$S/sw/bin:$S/sw/sbin:\$PATH
export LD_LIBRARY_PATH=$S/sw/lib/slurm:$S/sw/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
EOF
	fi
	mv "$S/env.tmp" "$S/env"
}

do_start() {
	check_installed
	if [ -s "$S/run/pids" ] && dead_component >/dev/null; then
		# Left over from a crash or a failed start: clean it up.
		do_stop >/dev/null 2>&1
	elif [ -s "$S/run/pids" ]; then
		die "a cluster already runs in $S (stop it first)"
	fi
	prepare_dirs
	cd "$S" || die "cannot enter $S"
	unpack_release
	OWN=1
	# Interrupted: stop what has started.
	trap 'trap "" INT TERM HUP PIPE; err "interrupted; stopping what had started"; do_stop >/dev/null 2>&1; exit 130' INT TERM HUP PIPE
	t0=$(date +%s.%N)
	exec 9>>"$LOCK" || die "cannot open the port lock $LOCK"
	flock -w 120 9 || die "timed out waiting for the port lock $LOCK"
	SKIP_BLOCKS=
	tries=0
	while :; do
		tries=$((tries + 1))
		BASE=$(pick_block) || die "no free block of 10 TCP ports found"
		start_attempt && break
		SKIP_BLOCKS="$SKIP_BLOCKS $BASE"
		[ $tries -lt 3 ] || die "3 port blocks clashed; giving up"
	done
	flock -u 9
	exec 9>&-
	# slurmctld runs its first scheduling pass 3 s after it started, at
	# the earliest (until that pass reads SchedulerParameters, the built-in
	# batch_sched_delay=3 applies): a job submitted before then would wait
	# for it, and `sbatch --wait` would answer after 10 s instead of 2 s.
	# Return only then, unless MBS_SLURM_NO_SCHED_WAIT=1.
	if [ -z "${MBS_SLURM_NO_SCHED_WAIT:-}" ]; then
		w=$(awk -v a="$tctld" -v b="$(date +%s.%N)" \
			'BEGIN { w = a + 3.05 - b; printf "%.2f", (w > 0 ? w : 0) }')
		sleep "$w"
	fi
	write_env
	trap - INT TERM HUP PIPE
	OWN=

	t1=$(date +%s.%N)
	say "cluster ready in $(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }') s: slurmctld 127.0.0.1:$BASE, slurmrestd http://127.0.0.1:$((BASE + 1)) and unix:$S/rest/slurmrestd.sock"
	say "use it with: . $S/env"
}

# kill_wait SIG TIMEOUT NAME...: signal the live ones, wait until all gone.
# slurmctld 22.05 removes its pid file once it has saved its state, then
# waits up to 3 s for agent threads that are still trying the fake nodes'
# dead port (the registration agent it sends to all nodes runs for about
# 22 s after every start): it gets SIGKILL at that point instead.
kill_wait() {
	sig=$1
	tmo=$2
	shift 2
	ctldpf=
	for n in "$@"; do
		p=$(pid_of "$n")
		alive "$p" "$(mark_of "$n")" || continue
		[ "$n" = slurmctld ] && [ "$sig" = TERM ] &&
			[ -f "$S/run/slurmctld.pid" ] && ctldpf=$p
		kill -"$sig" "$p" 2>/dev/null
	done
	end=$(($(date +%s) + tmo))
	while :; do
		left=
		for n in "$@"; do
			alive "$(pid_of "$n")" "$(mark_of "$n")" && left="$left $n"
		done
		[ -z "$left" ] && return 0
		[ "$(date +%s)" -lt "$end" ] || { echo "$left"; return 1; }
		if [ -n "$ctldpf" ] && [ ! -f "$S/run/slurmctld.pid" ]; then
			alive "$ctldpf" "$S/etc/slurm.conf" && kill -KILL "$ctldpf" 2>/dev/null
			ctldpf=
		fi
		sleep 0.05
	done
}

# slurmstepd processes of this cluster: they listen on unix sockets in our
# slurmd spool directories (nothing else does).
stepds() {
	ss -Hxlp 2>/dev/null | grep -F "$S/spool/" |
		sed -n 's/.*pid=\([0-9][0-9]*\).*/\1/p' | sort -u
}

# descendants PID: all processes below PID (a job's tasks under slurmstepd).
descendants() {
	ps -e -o pid= -o ppid= | awk -v root="$1" '
		{ kid[$2] = kid[$2] " " $1 }
		END {
			todo = root
			while (todo != "") {
				n = split(todo, a, " "); todo = ""
				for (i = 1; i <= n; i++)
					if (a[i] in kid) { printf "%s", kid[a[i]]; todo = todo kid[a[i]] }
			}
		}'
}

do_stop() {
	if [ ! -s "$S/run/pids" ]; then
		say "nothing recorded in $S/run/pids: nothing to stop"
		return 0
	fi
	t0=$(date +%s.%N)
	was=running
	any_alive || was=
	# Jobs first, while slurmctld runs, so that no slurmstepd or job
	# process outlives its slurmd.
	if alive "$(pid_of slurmctld)" "$S/etc/slurm.conf"; then
		ids=$(sl squeue -h -o %A 2>/dev/null)
		if [ -n "$ids" ]; then
			# shellcheck disable=SC2086
			sl scancel $ids >/dev/null 2>&1
			end=$(($(date +%s) + 15))
			while [ -n "$(sl squeue -h -t R,CG,CF,S -o %A 2>/dev/null)" ] &&
				[ "$(date +%s)" -lt "$end" ]; do
				sleep 0.1
			done
		fi
	fi
	slurm=
	for n in $(names); do
		case $n in munged | slurmdbd | mariadbd) ;; *) slurm="$slurm $n" ;; esac
	done
	rc=0
	# shellcheck disable=SC2086
	if [ -n "$slurm" ] && ! left=$(kill_wait TERM "$STOP_TIMEOUT" $slurm); then
		err "still running after ${STOP_TIMEOUT}s:$left; sending SIGKILL"
		# shellcheck disable=SC2086
		left=$(kill_wait KILL 5 $left) || { err "could not stop:$left"; rc=1; }
	fi
	for p in $(stepds); do
		err "killing a leftover slurmstepd (pid $p) and its processes"
		# shellcheck disable=SC2046
		kill -KILL "$p" $(descendants "$p") 2>/dev/null
	done
	# slurmdbd once slurmctld has sent it what it had, MariaDB after it.
	for n in slurmdbd mariadbd; do
		[ -n "$(pid_of "$n")" ] || continue
		if ! left=$(kill_wait TERM "$STOP_TIMEOUT" "$n"); then
			err "$n still running after ${STOP_TIMEOUT}s; sending SIGKILL"
			left=$(kill_wait KILL 5 "$n") || { err "could not stop $n"; rc=1; }
		fi
	done
	if [ -n "$(pid_of munged)" ] && ! left=$(kill_wait TERM 10 munged); then
		left=$(kill_wait KILL 5 munged) || { err "could not stop munged"; rc=1; }
	fi
	rm -f "$S/rest/slurmrestd.sock" "$S/env"
	t1=$(date +%s.%N)
	if [ -z "$was" ]; then
		[ $rc -eq 0 ] && say "not running: nothing to stop"
	else
		[ $rc -eq 0 ] && say "stopped in $(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }') s"
	fi
	return $rc
}

do_status() {
	if [ ! -s "$S/run/pids" ]; then
		say "not running (nothing recorded in $S)"
		return 1
	fi
	rc=0
	for n in $(names); do
		p=$(pid_of "$n")
		if alive "$p" "$(mark_of "$n")"; then
			say "$n: running (pid $p)"
		else
			say "$n: not running"
			rc=1
		fi
	done
	if [ $rc -eq 0 ] && ! sl scontrol ping 2>/dev/null | grep -q 'is UP'; then
		say "slurmctld does not answer 'scontrol ping'"
		rc=1
	fi
	return $rc
}

[ $# -eq 2 ] || usage
cmd=$1
set_state_dir "$2"
use_release
# Daemons started from here keep this directory as theirs: a crash dumps
# its core into the state directory, not into the caller's (the source
# tree).
[ -d "$S" ] && cd "$S"
case $cmd in
start) do_start ;;
stop)
	[ -d "$S" ] || { say "no $S: nothing to stop"; exit 0; }
	do_stop
	;;
status)
	[ -d "$S" ] || { say "no $S: not running"; exit 1; }
	do_status
	;;
restd-stop) do_restd stop ;;
ctld-restart) do_ctld_restart ;;
restd-start) do_restd start ;;
*) usage ;;
esac
