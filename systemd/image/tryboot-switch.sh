#!/bin/sh
# RAUC's boot loader backend on the Raspberry Pi 4 cabinet (system.conf: bootloader=custom),
# installed as /usr/local/libexec/spit-slot-switch. The Pi's firmware picks the slot: autoboot.txt,
# on the card's first partition (mounted read-only at /boot/firmware), as Raspberry Pi documents it:
#   [all]                 the slot that boots (slot A: boot partition 2, slot B: 3)
#   tryboot_a_b=1
#   boot_partition=2
#   [tryboot]             the other slot, started once by `reboot "0 tryboot"` (the firmware clears
#   boot_partition=3      the flag as it boots: any later boot, or a power cut, is [all]'s again)
# RAUC calls it:
#   get-primary              the slot the next boot starts: [tryboot]'s when a trial reboot is
#                            asked for (/run/systemd/reboot-param holds "0 tryboot"), else [all]'s
#   set-primary SLOT         the booted slot: made [all]'s (committed); the other (after an install):
#                            made [tryboot]'s, and the next reboot asks the firmware for a trial
#   get-state SLOT           good or bad (bad: a file slot-SLOT.bad beside autoboot.txt)
#   set-state SLOT good|bad  good on the slot on trial commits it ([all] becomes its partition);
#                            bad on the slot [all] names gives [all] to the other
# and spit-arcade-boot-ok asks (not RAUC):
#   get-current              the booted slot (rauc.slot= on the kernel command line)
#   is-trial                 exit 0 when the booted slot is not [all]'s: a trial boot to be checked
# systemd/README.md, "The Raspberry Pi 4: tryboot".
set -eu
DIR=${SPIT_AUTOBOOT_DIR:-/boot/firmware}
AUTOBOOT="$DIR/autoboot.txt"
PARAM=${SPIT_REBOOT_PARAM:-/run/systemd/reboot-param}
me=spit-slot-switch

die() { echo "$me: $*" >&2; exit 1; }

upper() {
  case "$1" in A|a) echo A ;; B|b) echo B ;; *) die "no slot $1 (A or B)" ;; esac
}

partition_of() { case "$1" in A) echo 2 ;; B) echo 3 ;; esac; }

slot_of() {  # the slot of a boot partition number
  case "$1" in 2) echo A ;; 3) echo B ;; *) die "autoboot.txt names partition '$1', not a slot's boot partition (2 or 3)" ;; esac
}

other_of() { case "$1" in A) echo B ;; B) echo A ;; esac; }

section_value() {  # boot_partition in section $1 (all or tryboot) of autoboot.txt
  # (mounted by fstab, nofail: RAUC's service may ask before it is; mounted here then, read-only)
  [ -n "${SPIT_AUTOBOOT_NO_MOUNT:-}" ] || mountpoint -q "$DIR" || mount "$DIR" || true
  [ -f "$AUTOBOOT" ] || die "no $AUTOBOOT"
  sed -n "/^\[$1\]/,/^\[/s/^boot_partition=\([0-9]*\).*/\1/p" "$AUTOBOOT" | head -n1
}

committed() { slot_of "$(section_value all)"; }  # the slot [all] boots

booted() {  # the slot this system was started from (nothing if not told)
  for word in $(cat "${SPIT_CMDLINE:-/proc/cmdline}"); do
    case "$word" in rauc.slot=A) echo A ;; rauc.slot=B) echo B ;; esac
  done
}

writable() {  # the first partition is mounted read-only but while autoboot.txt or a mark changes
  [ -z "${SPIT_AUTOBOOT_NO_MOUNT:-}" ] || return 0  # (tests: a folder stands for the partition)
  mountpoint -q "$DIR" || mount "$DIR"
  mount -o remount,rw "$DIR"
  trap 'sync; mount -o remount,ro "$DIR" 2>/dev/null || true' EXIT
}

write_autoboot() {  # $1 the slot that boots, $2 the slot a trial boot starts; replaced whole
  printf '[all]\ntryboot_a_b=1\nboot_partition=%s\n[tryboot]\nboot_partition=%s\n' \
    "$(partition_of "$1")" "$(partition_of "$2")" >"$DIR/autoboot.new"
  sync
  mv -f "$DIR/autoboot.new" "$AUTOBOOT"
  sync
}

trial_asked() {  # a reboot "0 tryboot" is what the next reboot does
  [ -f "$PARAM" ] && grep -q 'tryboot' "$PARAM"
}

get_primary() {
  if trial_asked; then
    slot_of "$(section_value tryboot)"
  else
    committed
  fi
}

set_primary() {
  s=$1
  now=$(booted)
  [ -n "$now" ] || die "the booted slot is not known (no rauc.slot= on the kernel command line)"
  writable
  rm -f "$DIR/slot-$s.bad"
  if [ "$s" = "$now" ]; then
    write_autoboot "$s" "$(other_of "$s")"
    rm -f "$PARAM"
  else
    # The slot just installed is tried once: the firmware's tryboot flag, which systemd passes to
    # the kernel with the next reboot (systemctl reboot, or a failed unit's FailureAction=reboot).
    write_autoboot "$now" "$s"
    mkdir -p "$(dirname "$PARAM")"
    echo "0 tryboot" >"$PARAM"
  fi
}

state_of() {
  if [ -e "$DIR/slot-$1.bad" ]; then echo bad; else echo good; fi
}

set_state() {
  s=$1 state=$2
  case "$state" in
    good)
      writable
      rm -f "$DIR/slot-$s.bad"
      # The booted slot on trial, good: it is the one that boots from now on.
      now=$(booted)
      first=$(committed)
      if [ "$s" = "$now" ] && [ "$s" != "$first" ]; then
        write_autoboot "$s" "$(other_of "$s")"
      fi ;;
    bad)
      writable
      : >"$DIR/slot-$s.bad"
      first=$(committed)
      trial=$(section_value tryboot)
      if trial_asked && [ "$trial" = "$(partition_of "$s")" ]; then rm -f "$PARAM"; fi
      if [ "$s" = "$first" ] && [ "$(state_of "$(other_of "$s")")" = good ]; then
        write_autoboot "$(other_of "$s")" "$s"
      fi ;;
    *) die "no state $state (good or bad)" ;;
  esac
}

# (Each value from a function that can fail is assigned first: `set -e` stops at a failed
# assignment, but not at a failed $(...) inside another command's arguments.)
case "${1:-}" in
  get-primary) get_primary ;;
  set-primary) slot=$(upper "${2:-}"); set_primary "$slot" ;;
  get-state) slot=$(upper "${2:-}"); state_of "$slot" ;;
  set-state) slot=$(upper "${2:-}"); set_state "$slot" "${3:-}" ;;
  get-current) booted ;;
  is-trial) now=$(booted); first=$(committed); [ -n "$now" ] && [ "$now" != "$first" ] ;;
  *) die "usage: $me get-primary | set-primary A|B | get-state A|B | set-state A|B good|bad | get-current | is-trial" ;;
esac
