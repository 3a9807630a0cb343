#!/bin/sh
# spit-arcade-fallback (installed in /usr/local/libexec by install.sh; run by spit-arcade-fallback.service).
# The game failed to start again and again: show why on the cabinet's screen, wait, try again.
set -u
wait_s=60
{
  printf '\033c'
  echo "Spit Arcade could not start (10 tries in 10 minutes). Trying again in $wait_s seconds."
  echo "Check the settings with:  spit-arcade check-config --cabinet"
  echo
  echo "The game's last words (journalctl -u spit-arcade):"
  journalctl -u spit-arcade.service -n 20 --no-pager -o cat 2>&1 | cut -c1-160
} >/dev/tty1 2>&1
sleep "$wait_s"
systemctl reset-failed spit-arcade.service
systemctl start --no-block spit-arcade.service
