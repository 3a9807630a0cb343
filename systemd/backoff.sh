#!/bin/sh
# spit-arcade-backoff (installed in /usr/local/libexec by install.sh; spit-arcade.service's ExecStartPre=+).
# The back-off between restarts, for systemd 252 (Debian bookworm, Raspberry Pi OS bookworm), which
# has no RestartSteps=/RestartMaxDelaySec=: waits 0 s before the first start in ten minutes, then 1, 2,
# 4, 8, 16 and at most 30 s before each further one. A game that ran for an hour and crashed once comes
# back at once; one that cannot start backs off, and after 10 starts the fallback screen says why.
# (The tests set SPIT_BACKOFF_STARTS, SPIT_BACKOFF_NOW and SPIT_BACKOFF_SLEEP=echo.)
set -u
starts=${SPIT_BACKOFF_STARTS:-/run/spit-arcade-starts}
now=${SPIT_BACKOFF_NOW:-$(cut -d. -f1 /proc/uptime)}
recent=$(awk -v now="$now" '$1 > now - 600' "$starts" 2>/dev/null | wc -l)
{ awk -v now="$now" '$1 > now - 600' "$starts" 2>/dev/null; echo "$now"; } >"$starts.new" && mv "$starts.new" "$starts"
[ "$recent" -eq 0 ] && exit 0
wait_s=1
i=1
while [ "$i" -lt "$recent" ] && [ "$wait_s" -lt 30 ]; do wait_s=$((wait_s * 2)); i=$((i + 1)); done
[ "$wait_s" -gt 30 ] && wait_s=30
echo "spit-arcade: start $((recent + 1)) in ten minutes; waiting ${wait_s} s first"
${SPIT_BACKOFF_SLEEP:-sleep} "$wait_s"
