#!/bin/sh
# /usr/local/libexec/spit-arcade-boot-ok [BOUND_S [STARTS]]: run on a trial boot of a newly installed slot
# (systemd-boot's boot counting: systemd-bless-boot.service pulls in boot-complete.target, which
# requires spit-arcade-boot-ok.service). The boot is good when the game has said READY=1 (sent after
# its first frame is drawn) and tells systemd which scene it shows (title, the start-up notices over
# it, or a resumed game), within BOUND_S seconds of power-on (default 300). Then boot-complete.target
# is reached and systemd-bless-boot marks the slot good. Otherwise — not up in time, or the game has
# already failed STARTS times (default 3: it crashes at start; no use waiting) — the slot is marked
# bad at once (no waiting for its other tries) and the unit fails, which reboots the cabinet
# (FailureAction=) into the other slot. systemd/README.md, "Updates: A/B root slots".
set -u
bound=${1:-300}
starts=${2:-3}
unit=spit-arcade.service
while :; do
  state=$(systemctl show -p ActiveState --value "$unit")
  shows=$(systemctl show -p StatusText --value "$unit")
  if [ "$state" = active ]; then
    case "$shows" in
      title:*|notices:*|resumed:*|play:*)
        echo "spit-arcade-boot-ok: the game is up after $(cut -d' ' -f1 /proc/uptime) s, showing: $shows"
        # The slot is good: the copies of the books kept before its store migrations (for a rollback
        # to the slot before) are no longer needed (appliance/operator/store.py, "Across versions").
        rm -f /var/lib/spit-arcade/store.sqlite.before-v*
        # The Pi 4 (SPIT_SLOT_MARK=tryboot): the slot on trial is committed in autoboot.txt here;
        # amd64: systemd-bless-boot does it once boot-complete.target is reached.
        if [ "${SPIT_SLOT_MARK:-}" = tryboot ]; then
          /usr/local/libexec/spit-slot-switch set-state "$(/usr/local/libexec/spit-slot-switch get-current)" good || exit 1
        fi
        exit 0 ;;
    esac
  fi
  up=$(cut -d. -f1 /proc/uptime)
  [ "$up" -lt "$bound" ] || { why="within $bound s of power-on"; break; }
  failed=$(systemctl show -p NRestarts --value "$unit")
  [ "${failed:-0}" -lt "$starts" ] || { why="in $failed starts, each failed"; break; }
  sleep 1
done
echo "spit-arcade-boot-ok: the game did not show its first screen $why ($unit $state, showing '$shows'): this slot is marked bad and the cabinet restarts into the other one" >&2
# What this check allowed and which of it ran out, on the state partition that both slots share: the
# slot gone back to says it in its updater's words (appliance/updater/slots.py, boot_check_record).
case "$why" in within*) ran_out=bound ;; *) ran_out=starts ;; esac
{ printf 'slot=%s\nbound_s=%s\nstarts=%s\nfailed=%s\n' \
    "$(grep -o 'rauc\.slot=[A-Za-z]*' /proc/cmdline | cut -d= -f2)" "$bound" "$starts" "$ran_out" \
    >/var/lib/spit-arcade/boot-ok-failed.new && mv /var/lib/spit-arcade/boot-ok-failed.new /var/lib/spit-arcade/boot-ok-failed; } || true
if [ "${SPIT_SLOT_MARK:-}" = tryboot ]; then
  /usr/local/libexec/spit-slot-switch set-state "$(/usr/local/libexec/spit-slot-switch get-current)" bad || true
else
  /usr/local/libexec/spit-esp-rw /lib/systemd/systemd-bless-boot bad || true
fi
exit 1
