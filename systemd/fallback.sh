#!/bin/sh
# spit-arcade-fallback (installed in /usr/local/libexec by install.sh; run by spit-arcade-fallback.service).
# The game failed to start again and again: show why on the cabinet's screen, wait, try again.
# When it cannot run on this machine at all (its exit 79: the processor is older than its libraries
# need; or killed by SIGILL, an instruction the processor lacks), say so and do not try again: a
# restart cannot change the processor. (The tests set SPIT_FALLBACK_TTY, SPIT_FALLBACK_SHOW (the
# game unit's `systemctl show` lines), SPIT_FALLBACK_LOG, SPIT_FALLBACK_SLEEP=true and
# SPIT_FALLBACK_SYSTEMCTL=echo.)
set -u
wait_s=60
tty=${SPIT_FALLBACK_TTY:-/dev/tty1}
systemctl=${SPIT_FALLBACK_SYSTEMCTL:-systemctl}
show=${SPIT_FALLBACK_SHOW-$(systemctl show -p ExecMainCode -p ExecMainStatus spit-arcade.service 2>/dev/null)}
last_words() {
  if [ -n "${SPIT_FALLBACK_LOG:-}" ]; then cat "$SPIT_FALLBACK_LOG"; else journalctl -u spit-arcade.service -n "$1" --no-pager -o cat 2>&1; fi
}
code=$(printf '%s\n' "$show" | sed -n 's/^ExecMainCode=//p')
status=$(printf '%s\n' "$show" | sed -n 's/^ExecMainStatus=//p')
# ExecMainCode: 1 exited (status: the exit code), 2 killed, 3 dumped (status: the signal; 4 is SIGILL).
if [ "$code" = 1 ] && [ "$status" = 79 ]; then
  why=$(last_words 50 | grep -o "this machine's processor is older than.*" | tail -n1)
  [ -n "$why" ] || why="this machine's processor is older than the game's libraries need (x86-64-v2)"
elif { [ "$code" = 2 ] || [ "$code" = 3 ]; } && [ "$status" = 4 ]; then
  why="the game was stopped by an instruction this machine's processor does not have (SIGILL): the processor is older than the game's libraries need (x86-64-v2)"
else
  why=""
fi
if [ -n "$why" ]; then
  {
    printf '\033c'
    echo "Spit Arcade cannot run on this machine: $why."
    echo "It needs a newer computer (any x86-64 processor since about 2009, or a Raspberry Pi 4)."
    echo "It will not be started again until the machine restarts."
  } >"$tty" 2>&1
  echo "spit-arcade-fallback: $why; not started again"
  exit 0
fi
{
  printf '\033c'
  echo "Spit Arcade could not start (10 tries in 10 minutes). Trying again in $wait_s seconds."
  echo "Check the settings with:  spit-arcade check-config --cabinet"
  echo
  echo "The game's last words (journalctl -u spit-arcade):"
  last_words 20 | cut -c1-160
} >"$tty" 2>&1
${SPIT_FALLBACK_SLEEP:-sleep} "$wait_s"
$systemctl reset-failed spit-arcade.service
$systemctl start --no-block spit-arcade.service
