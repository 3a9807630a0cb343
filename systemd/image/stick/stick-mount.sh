#!/bin/sh
# /usr/local/libexec/spit-stick-mount DEVICE FSTYPE: run by udev (61-spit-arcade-stick.rules) when a
# USB stick's first file system appears. It asks systemd for a transient mount unit (systemd-mount:
# udev's own sandbox cannot mount), bound to the device, so that it is unmounted when the stick is
# pulled; --no-block, because the device unit exists only once udev is done with this event.
# Readable by root (the updater reads the bundles) and, on FAT/exFAT, owned by the game's user, who
# writes exports (audits) to it: uid/gid options, rw for user and group, nothing for others.
# Never executable, no device files, no set-uid: nosuid,nodev,noexec.
set -eu
device="$1" type="$2" where=/run/spit-arcade/stick
if mountpoint -q "$where"; then
  echo "spit-stick-mount: a stick is mounted at $where already; $device left alone" >&2
  exit 0
fi
options="nosuid,nodev,noexec,noatime"
case "$type" in
  vfat|exfat)
    uid="$(id -u spit 2>/dev/null || echo 0)"
    gid="$(getent group spit | cut -d: -f3)"
    options="$options,uid=$uid,gid=${gid:-0},fmask=0117,dmask=0007"
    [ "$type" = vfat ] && options="$options,flush"  # written out at once: a stick is pulled without warning
    ;;
esac
exec systemd-mount --no-block --collect --automount=no --type="$type" --options="$options" "$device" "$where"
