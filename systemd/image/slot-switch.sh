#!/bin/sh
# RAUC's boot loader backend on the amd64 cabinet (system.conf: bootloader=custom), installed as
# /usr/local/libexec/spit-slot-switch. RAUC calls it:
#   get-primary              the slot the next boot starts (A or B)
#   set-primary SLOT         boot SLOT next: its kernel onto the ESP, its loader entry with 3 tries
#   get-state SLOT           good or bad
#   set-state SLOT good|bad
# The truth is in systemd-boot's loader entries on the ESP (/boot/efi/loader/entries), one a slot:
#   spit-a.conf          good (booted to the game's first screen at least once)
#   spit-b+3.conf        indeterminate, 3 tries left; systemd-boot renames it at each try
#                        (spit-b+2-1.conf, ...), systemd-bless-boot renames it to spit-b.conf once a
#                        boot of it reached boot-complete.target (spit-arcade-boot-ok.service)
#   spit-b+0-3.conf      bad: no tries left; systemd-boot sorts it last and boots the other
# systemd-boot boots the first entry in its order: not bad, then the highest `version`, so the slot
# made primary last gets the next highest version. systemd/README.md says why.
set -eu
ESP=${SPIT_ESP:-/boot/efi}
ENTRIES="$ESP/loader/entries"
TRIES=${SPIT_TRIES:-3}
me=spit-slot-switch

die() { echo "$me: $*" >&2; exit 1; }

lower() {
  case "$1" in A) echo a ;; B) echo b ;; *) die "no slot $1 (A or B)" ;; esac
}

entry_of() {  # the loader entry file of slot $1 (a or b), whatever its counters; nothing if none
  for f in "$ENTRIES/spit-$1.conf" "$ENTRIES/spit-$1+"*.conf; do
    if [ -e "$f" ]; then echo "$f"; return 0; fi
  done
}

tries_left() {  # nothing for an entry without counters (good), else its tries-left counter
  name=${1##*/}
  name=${name%.conf}
  case "$name" in
    *+*) left=${name#*+}; echo "${left%%-*}" ;;
  esac
}

state_of() {  # good or bad, of slot $1 (a or b)
  f=$(entry_of "$1")
  if [ -z "$f" ] || [ "$(tries_left "$f")" = 0 ]; then echo bad; else echo good; fi
}

version_of() {  # the entry's `version` (0 if none)
  v=$(sed -n 's/^version[[:space:]]*\([0-9][0-9]*\).*/\1/p' "$1" | head -n1)
  echo "${v:-0}"
}

booted() {  # the slot this system was started from (a or b; nothing if not told)
  for word in $(cat "${SPIT_CMDLINE:-/proc/cmdline}"); do
    case "$word" in rauc.slot=A) echo a ;; rauc.slot=B) echo b ;; esac
  done
}

esp_writable() {  # the ESP is mounted read-only but while an entry changes
  [ -z "${SPIT_ESP_NO_MOUNT:-}" ] || return 0  # (tests: a folder stands for the ESP)
  mountpoint -q "$ESP" || mount "$ESP"
  mount -o remount,rw "$ESP"
  trap 'sync; mount -o remount,ro "$ESP" 2>/dev/null || true' EXIT
}

rename_entry() {  # $1 the entry now, $2 its new name; a rename on FAT changes one directory entry
  [ "$1" = "$ENTRIES/$2" ] || mv -f "$1" "$ENTRIES/$2"
}

get_primary() {
  best="" best_version=-1
  for s in b a; do  # at equal versions systemd-boot orders by id downwards: b before a
    [ "$(state_of "$s")" = good ] || continue
    v=$(version_of "$(entry_of "$s")")
    if [ "$v" -gt "$best_version" ]; then best=$s best_version=$v; fi
  done
  [ -n "$best" ] || die "no slot can boot (no loader entry that is not bad in $ENTRIES)"
  echo "$best" | tr ab AB
}

set_primary() {
  s=$1
  esp_writable
  other=a
  [ "$s" = a ] && other=b
  top=0
  o=$(entry_of "$other")
  [ -n "$o" ] && top=$(version_of "$o")
  # The kernel, initrd and command line of the slot's own system, copied next to its entry.
  source=${SPIT_SLOT_SOURCE:-/}  # (tests: a folder stands for the slot's system)
  if [ -z "${SPIT_SLOT_SOURCE:-}" ] && [ "$(booted)" != "$s" ]; then
    source=/run/$me/$s
    mkdir -p "$source"
    mountpoint -q "$source" || mount -o ro "/dev/disk/by-partlabel/spit-root-$s" "$source"
    trap 'umount "'"$source"'" 2>/dev/null || true; sync; mount -o remount,ro "$ESP" 2>/dev/null || true' EXIT
  fi
  kernel=$(ls "$source"/boot/vmlinuz-* 2>/dev/null | sort -V | tail -n1)
  [ -n "$kernel" ] || die "slot $s has no kernel in /boot"
  initrd="$source/boot/initrd.img-${kernel##*/vmlinuz-}"
  [ -f "$initrd" ] || die "slot $s has no ${initrd##*/}"
  options=$(cat "$source/etc/kernel/cmdline" 2>/dev/null || echo "ro rootwait quiet")
  mkdir -p "$ESP/spit-$s"
  cp "$kernel" "$ESP/spit-$s/vmlinuz.new"
  cp "$initrd" "$ESP/spit-$s/initrd.img.new"
  sync
  mv -f "$ESP/spit-$s/vmlinuz.new" "$ESP/spit-$s/vmlinuz"
  mv -f "$ESP/spit-$s/initrd.img.new" "$ESP/spit-$s/initrd.img"
  name="spit-$s+$TRIES.conf"
  [ "$(booted)" = "$s" ] && name="spit-$s.conf"  # the running slot has proved itself already
  upper=$(echo "$s" | tr ab AB)
  printf 'title Spit Arcade (slot %s)\nsort-key spit-arcade\nversion %s\nlinux /spit-%s/vmlinuz\ninitrd /spit-%s/initrd.img\noptions root=PARTLABEL=spit-root-%s rauc.slot=%s %s\n' \
    "$upper" $((top + 1)) "$s" "$s" "$s" "$upper" "$options" >"$ENTRIES/spit-$s.new"
  sync
  old=$(entry_of "$s")
  [ -z "$old" ] || rm -f "$old"
  mv -f "$ENTRIES/spit-$s.new" "$ENTRIES/$name"
  sync
}

set_state() {
  s=$1 state=$2
  f=$(entry_of "$s")
  case "$state" in
    good)
      [ -n "$f" ] || die "slot $s has no loader entry to mark good"
      esp_writable
      rename_entry "$f" "spit-$s.conf" ;;
    bad)
      [ -n "$f" ] || return 0  # no entry: it cannot be booted anyway
      esp_writable
      rename_entry "$f" "spit-$s+0.conf" ;;
    *) die "no state $state (good or bad)" ;;
  esac
}


# (Each slot is checked in an assignment first: `set -e` stops at a failed assignment, but not at a
# failed $(...) inside another command's arguments. tryboot-switch.sh, the Pi's, does the same.)
case "${1:-}" in
  get-primary) get_primary ;;
  set-primary) s=$(lower "${2:-}"); set_primary "$s" ;;
  get-state) s=$(lower "${2:-}"); state_of "$s" ;;
  set-state) s=$(lower "${2:-}"); set_state "$s" "${3:-}" ;;
  get-current) booted | tr ab AB ;;
  *) die "usage: $me get-primary | set-primary A|B | get-state A|B | set-state A|B good|bad" ;;
esac
