#!/bin/sh
# Run by build-image.sh inside the new system (chroot), after systemd/install.sh: what makes it a
# cabinet's image rather than a Pi someone installed by hand. ARCH=amd64|arm64, TEST=yes|no.
set -eu
here=/root/spit-arcade/systemd/image

echo spit-arcade >/etc/hostname
# A fresh machine id at each boot (the root is read-only): systemd makes one in RAM when it is empty.
: >/etc/machine-id
passwd --lock root >/dev/null

# Read-only root; what must be written goes to RAM, or (the game's state) to its own partition.
cat >/etc/fstab <<FSTAB
# Spit Arcade: the root is read-only (a power cut cannot hurt it); the game writes only its state partition.
LABEL=spit-root   /                    ext4   ro,noatime                        0 1
LABEL=spit-state  /var/lib/spit-arcade ext4   rw,noatime,nofail                     0 2
tmpfs             /tmp                 tmpfs  mode=1777,nosuid,nodev,size=64m     0 0
tmpfs             /var/tmp             tmpfs  mode=1777,nosuid,nodev,size=16m     0 0
tmpfs             /var/log             tmpfs  mode=0755,nosuid,nodev,size=32m     0 0
FSTAB
# The boot partition is FAT (no owners): root's alone, as the ESP's umask below, because the operator's
# venue keys and Wi-Fi pass phrase may wait there (spit-venue/, systemd/README.md "A venue").
[ "$ARCH" = arm64 ] && echo 'LABEL=SPITBOOT    /boot/firmware       vfat   ro,noatime,nofail,umask=0077      0 2' >>/etc/fstab

# A/B root slots on both (systemd/README.md, "Updates: A/B root slots"). The state partition grows to
# fill the disk at the first boot: systemd-repart grows the partition before any disk is checked or
# mounted (repart.conf), then systemd-growfs its ext4 once mounted (x-systemd.growfs, online).
sed -i 's|^LABEL=spit-state  /var/lib/spit-arcade ext4   rw,noatime,nofail                 |LABEL=spit-state  /var/lib/spit-arcade ext4   rw,noatime,nofail,x-systemd.growfs|' /etc/fstab
grep -q 'x-systemd.growfs' /etc/fstab
mkdir -p /etc/repart.d /etc/systemd/system/systemd-repart.service.d
install -m 0644 "$here/repart.d/50-spit-state.conf" /etc/repart.d/
install -m 0644 "$here/repart.conf" /etc/systemd/system/systemd-repart.service.d/spit-arcade.conf
if [ "$ARCH" = amd64 ]; then
  # The ESP holds systemd-boot, each slot's kernel and its loader entry: read-only but while a slot
  # is switched (spit-slot-switch) or blessed (systemd-bless-boot, through spit-esp-rw).
  mkdir -p /boot/efi
  echo 'LABEL=SPITBOOT    /boot/efi            vfat   ro,noatime,nofail,umask=0077      0 0' >>/etc/fstab
  install -m 0755 "$here/esp-rw.sh" /usr/local/libexec/spit-esp-rw
  install -m 0755 "$here/slot-switch.sh" /usr/local/libexec/spit-slot-switch
  install -m 0755 "$here/boot-ok.sh" /usr/local/libexec/spit-arcade-boot-ok
  mkdir -p /etc/systemd/system/systemd-bless-boot.service.d
  install -m 0644 "$here/bless-boot.conf" /etc/systemd/system/systemd-bless-boot.service.d/spit-arcade.conf
  install -m 0644 "$here/spit-arcade-boot-ok.service" /etc/systemd/system/
  systemctl enable spit-arcade-boot-ok.service >/dev/null 2>&1
  # bootctl would update a systemd-boot in EFI/systemd/ (there is none: it is EFI/BOOT/BOOTX64.EFI).
  systemctl mask systemd-boot-update.service >/dev/null 2>&1 || true
  # RAUC: its configuration (the keyring is put there by build-image.sh), and its D-Bus service,
  # which Debian's package does not ship: root's alone.
  mkdir -p /etc/rauc /usr/share/dbus-1/system.d /usr/share/dbus-1/system-services
  sed "s/@ARCH@/$ARCH/" "$here/rauc/system.conf" >/etc/rauc/system.conf
  install -m 0644 "$here/rauc/rauc.service" /etc/systemd/system/rauc.service
  install -m 0644 "$here/rauc/de.pengutronix.rauc.conf" /usr/share/dbus-1/system.d/
  install -m 0644 "$here/rauc/de.pengutronix.rauc.service" /usr/share/dbus-1/system-services/
fi
if [ "$ARCH" = arm64 ]; then
  # The Pi's firmware picks the slot (autoboot.txt on the card's first partition, /boot/firmware,
  # read-only but while spit-slot-switch rewrites it); a newly installed slot is started once with
  # the firmware's tryboot flag, and made the one that boots by spit-arcade-boot-ok when its game
  # came up (ExecCondition: only on such a trial boot). systemd/README.md, "The Raspberry Pi 4".
  install -m 0755 "$here/tryboot-switch.sh" /usr/local/libexec/spit-slot-switch
  install -m 0755 "$here/boot-ok.sh" /usr/local/libexec/spit-arcade-boot-ok
  mkdir -p /etc/systemd/system/spit-arcade-boot-ok.service.d /etc/systemd/system/multi-user.target.wants
  install -m 0644 "$here/spit-arcade-boot-ok.service" /etc/systemd/system/
  install -m 0644 "$here/tryboot-boot-ok.conf" /etc/systemd/system/spit-arcade-boot-ok.service.d/spit-arcade.conf
  ln -sfn ../spit-arcade-boot-ok.service /etc/systemd/system/multi-user.target.wants/spit-arcade-boot-ok.service
  mkdir -p /etc/rauc /usr/share/dbus-1/system.d /usr/share/dbus-1/system-services
  sed "s/@ARCH@/$ARCH/" "$here/rauc/system-tryboot.conf" >/etc/rauc/system.conf
  install -m 0644 "$here/rauc/rauc.service" /etc/systemd/system/rauc.service
  install -m 0644 "$here/rauc/de.pengutronix.rauc.conf" /usr/share/dbus-1/system.d/
  install -m 0644 "$here/rauc/de.pengutronix.rauc.service" /usr/share/dbus-1/system-services/
fi
# The operator's USB stick: its first file system mounted at /run/spit-arcade/stick while it is in.
install -m 0644 "$here/stick/61-spit-arcade-stick.rules" /etc/udev/rules.d/
install -m 0755 "$here/stick/stick-mount.sh" /usr/local/libexec/spit-stick-mount
# Services' state directories, made now: a read-only root cannot have them made at boot (logind
# failed with 238/STATE_DIRECTORY for want of /var/lib/systemd/linger).
mkdir -p /var/lib/systemd/linger
# journald keeps its log in RAM (/run); nothing else wants to write below /var on this system.
mkdir -p /etc/systemd/journald.conf.d
printf '[Journal]\nStorage=volatile\nRuntimeMaxUse=16M\n' >/etc/systemd/journald.conf.d/spit-arcade.conf
# No timers that write to /var on a read-only root, no apt on a kiosk.
systemctl mask apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer e2scrub_reap.service \
  systemd-timesyncd.service fstrim.timer >/dev/null 2>&1 || true

# The venue (docs/venue.md): off until the operator puts a spit-venue/ folder on the boot partition
# or a stick. /etc/spit-arcade/venue is the state partition's copy of it (the root is read-only);
# the network (systemd-networkd: Ethernet, or Wi-Fi with wpa_supplicant; systemd-resolved) and the
# uplink start only when it holds a venue.toml (ConditionPathExists, venue-on.conf): without it no
# link is configured, nothing listens and nothing is sent.
rm -rf /etc/spit-arcade/venue
ln -s /var/lib/spit-arcade/venue-setup /etc/spit-arcade/venue
install -m 0644 "$here/venue/spit-arcade-venue-setup.service" "$here/venue/spit-arcade-wifi.service" /etc/systemd/system/
install -D -m 0644 "$here/venue/50-spit-venue-wired.network" /etc/systemd/network/50-spit-venue-wired.network
install -m 0644 "$here/venue/60-spit-venue-wireless.network" /etc/systemd/network/
install -D -m 0644 "$here/venue/resolved.conf" /etc/systemd/resolved.conf.d/spit-arcade.conf
for unit in systemd-networkd.service systemd-networkd.socket systemd-networkd-wait-online.service systemd-resolved.service; do
  install -D -m 0644 "$here/venue/venue-on.conf" "/etc/systemd/system/$unit.d/spit-venue.conf"
done
install -m 0644 "$here/venue/wait-online.conf" /etc/systemd/system/systemd-networkd-wait-online.service.d/spit-arcade.conf
systemctl enable spit-arcade-venue-setup.service spit-arcade-wifi.service spit-arcade-uplink.service \
  systemd-networkd.service systemd-resolved.service >/dev/null 2>&1
# wpa_supplicant's own units are not the venue's (spit-arcade-wifi.service is): off.
systemctl disable wpa_supplicant.service >/dev/null 2>&1 || true
systemctl is-enabled spit-arcade-uplink.service systemd-networkd.service >/dev/null

if [ "$ARCH" = arm64 ]; then
  # build-image.sh set the kernel command line before the kernel came (/etc/default/raspi-firmware):
  # check that raspi-firmware wrote it so.
  grep -q "root=PARTLABEL=spit-root-a" /boot/firmware/cmdline.txt && grep -q " ro " /boot/firmware/cmdline.txt
fi

if [ "$TEST" = yes ]; then
  # The virtual cabinet's way in: a root agent on a virtio-serial port (not a login, not a console).
  install -m 0755 "$here/agent.py" /usr/local/libexec/spit-cabinet-agent
  install -m 0644 "$here/spit-cabinet-agent.service" /etc/systemd/system/
  systemctl enable spit-cabinet-agent.service >/dev/null 2>&1
  # The panels on the kernel's simulated GPIO chip; a slap pad on a USB serial adapter.
  install -m 0644 "$here/spit-cabinet-gpio-sim.service" /etc/systemd/system/
  systemctl enable spit-cabinet-gpio-sim.service >/dev/null 2>&1
  # The default wiring, with the chip named and a pad added (systemd/image/test-inputs.toml), checked.
  sed -e 's/^sources = \["gpio", "touch"\]$/sources = ["gpio", "serial", "touch"]/' \
      -e '/^\[gpio\]$/r '"$here/test-inputs.toml" /root/spit-arcade/appliance/inputs/default.toml \
      >/etc/spit-arcade/inputs.toml
  printf '\n[[serial]]\nport = "/dev/ttyUSB0"   # QEMU usb-serial, the host pad-emulator on its other end\nplayer = 1\n' >>/etc/spit-arcade/inputs.toml
  grep -q '^sources = \["gpio", "serial", "touch"\]$' /etc/spit-arcade/inputs.toml
  /opt/spit-arcade/venv/bin/spit-arcade check-config --inputs /etc/spit-arcade/inputs.toml
  # A new slot's bound to show the title (boot-ok.sh, 300 s on a cabinet) is what the virtual cabinet
  # measured this run, emulated: lab/cabinet/update.py writes it to the state partition from its
  # first boot (three times its time to the title, at least 300 s); without it, 300 s as on a cabinet.
  mkdir -p /etc/systemd/system/spit-arcade-boot-ok.service.d
  printf '%s\n' '[Service]' 'ExecStart=' \
    'ExecStart=/bin/sh -c '"'"'exec /usr/local/libexec/spit-arcade-boot-ok "$$(cat /var/lib/spit-arcade/vm-boot-ok-bound 2>/dev/null || echo 300)" 3'"'" \
    'TimeoutStartSec=infinity' >/etc/systemd/system/spit-arcade-boot-ok.service.d/emulated.conf
  # The emulated cabinet (TCG, Mesa's llvmpipe, a loaded host) drew a frame in 16.2 s (the game's
  # frame p99 on an updated slot, host load 22), which a 10 s watchdog cannot tell from a hang: it
  # killed the game again and again. 60 s here; a cabinet keeps spit-arcade.service's 10 s.
  mkdir -p /etc/systemd/system/spit-arcade.service.d
  printf '%s\n' '[Service]' 'WatchdogSec=60s' >/etc/systemd/system/spit-arcade.service.d/emulated.conf
fi
