#!/bin/sh
# /usr/local/libexec/spit-esp-rw COMMAND...: run COMMAND with the EFI system partition writable, and
# read-only again after, whatever COMMAND did. The ESP (/boot/efi) is mounted read-only like the
# root: only a slot switch (spit-slot-switch) and systemd-bless-boot's rename write it.
set -u
esp=/boot/efi
mountpoint -q "$esp" || mount "$esp"
mount -o remount,rw "$esp" || exit 1
"$@"
rc=$?
sync
mount -o remount,ro "$esp" || true
exit $rc
