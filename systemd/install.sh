#!/usr/bin/env bash
# Install the cabinet's kiosk on Raspberry Pi OS Lite (run as root from a clone of this repo):
#   sudo systemd/install.sh            # install (or update) and start the game
#   sudo systemd/install.sh --no-start # install, start at the next boot
#
# What it does (systemd/README.md explains each step):
#   - builds a wheel of the game from the clone (systemd/build-wheel.sh) and installs it, with its
#     runtime dependencies at the versions requirements/cabinet.txt pins (hashes checked), into a new
#     venv in /opt/spit-arcade/venv, owned by root: the kiosk's user can change none of the code it runs,
#     and neither can whoever owns the clone;
#   - makes the `spit` system user (no home, no shell, no password), which owns only its state
#     in /var/lib/spit-arcade (journals, audits, config.toml);
#   - puts the wiring in /etc/spit-arcade/inputs.toml (kept if already there; root's);
#   - installs the hardened unit, its fallback, and closes the keyboard's ways out of the kiosk:
#     no login prompts on other consoles, no console switching, no Ctrl+Alt+Del, no SysRq, no blanking.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ "$(id -u)" = 0 ] || { echo "install.sh: run as root (sudo)" >&2; exit 1; }
start=yes
[ "${1:-}" = "--no-start" ] && start=no

prefix=/opt/spit-arcade
state=/var/lib/spit-arcade
umask 022

# --- the program: a wheel, in a root-owned venv (built beside the old one, swapped in at the end)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The wheel holds the game alone (appliance/; the lab stays in the clone), built from a copy of the
# clone with the pinned setuptools (systemd/build-wheel.sh).
wheel="$("$here/systemd/build-wheel.sh" "$work/dist")"

mkdir -p "$prefix"
chown root:root "$prefix"
chmod 0755 "$prefix"
# Each install is a venv of its own, made where it stays (a venv's scripts name its python by
# absolute path: a venv made elsewhere and renamed cannot run them), and `venv` is a link swapped to
# it in one rename at the end: a game that starts meanwhile runs the old version or the new, whole.
release="$prefix/venv-$(date -u +%Y%m%dT%H%M%S)"
rm -rf "$release"
# System site packages: Raspberry Pi OS's python3-lgpio (gpiozero's pin factory on a Pi 4 and 5),
# used where it is the very version the lock pins.
python3 -m venv --system-site-packages "$release"
# Every package the game runs, at the version requirements/cabinet.txt pins, each file checked
# against its hashes (lgpio included: the [cabinet] extra); then the game, resolving nothing more.
"$release/bin/pip" install --quiet --no-cache-dir --require-hashes -r "$here/requirements/cabinet.txt"
"$release/bin/pip" install --quiet --no-cache-dir --no-deps "$wheel"
# No installer left in the kiosk's venv: nothing the game runs can add code to it.
"$release/bin/python" -m pip uninstall --quiet --yes pip setuptools >/dev/null 2>&1 || true
# The new venv must run before it goes live (and `set -e` stops here if it cannot).
"$release/bin/spit-arcade" variants >/dev/null
[ -d "$prefix/venv" ] && [ ! -L "$prefix/venv" ] && rm -rf "$prefix/venv"  # an install from before the links
ln -sfn "$release" "$prefix/venv.link"
mv -T "$prefix/venv.link" "$prefix/venv"   # one rename: the old link replaced whole
for old in "$prefix"/venv-*; do [ "$old" = "$release" ] || rm -rf "$old"; done
install -m 0644 "$here/README.md" "$prefix/README.md"
install -d -m 0755 "$prefix/systemd"
install -m 0644 "$here/systemd/README.md" "$prefix/systemd/README.md"
chown -R root:root "$prefix"
chmod -R go-w "$prefix"
ln -sf "$prefix/venv/bin/spit-arcade" /usr/local/bin/spit-arcade

# --- the user, its state, the wiring
id spit >/dev/null 2>&1 ||
  useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin spit
# The groups that own the devices it uses. Plain Debian has no `gpio` group (Raspberry Pi OS has one,
# and a udev rule giving it the GPIO chips): make both where they are missing, so the unit's
# SupplementaryGroups= can always be granted (a group that does not exist fails the unit: 216/GROUP).
getent group gpio >/dev/null || groupadd --system gpio
if ! grep -qs 'gpiochip' /etc/udev/rules.d/*.rules /lib/udev/rules.d/*.rules /usr/lib/udev/rules.d/*.rules; then
  install -D -m 0644 "$here/systemd/60-spit-arcade-gpio.rules" /etc/udev/rules.d/60-spit-arcade-gpio.rules
fi
for group in video render input audio gpio dialout; do
  getent group "$group" >/dev/null || groupadd --system "$group"
  usermod -aG "$group" spit
done
install -d -m 0750 -o spit -g spit "$state" "$state/journals" "$state/audits"
if [ ! -f "$state/config.toml" ]; then
  if [ -f /etc/spit-arcade/config.toml ]; then  # where an older install kept it
    install -m 0640 -o spit -g spit /etc/spit-arcade/config.toml "$state/config.toml"
  else
    printf '%s\n' '# Spit Arcade settings (see README.md, "Settings"); check with: spit-arcade check-config --cabinet' \
      '# volume = 0.6' '# assist = false' '# idle_timeout_s = 90' >"$state/config.toml"
    chown spit:spit "$state/config.toml"
    chmod 0640 "$state/config.toml"
  fi
fi
install -d -m 0755 /etc/spit-arcade
[ -f /etc/spit-arcade/inputs.toml ] || install -m 0644 "$here/appliance/inputs/default.toml" /etc/spit-arcade/inputs.toml

# --- the units
install -m 0644 "$here/systemd/spit-arcade.service" /etc/systemd/system/spit-arcade.service
install -m 0644 "$here/systemd/spit-arcade-fallback.service" /etc/systemd/system/spit-arcade-fallback.service
# The venue uplink: its own user (in the game's group, to read the game's state), its unit enabled
# only where the operator put a [venue] in /etc/spit-arcade/venue/ (spit-arcade venue init).
id spit-uplink >/dev/null 2>&1 ||
  useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin spit-uplink
usermod -aG spit spit-uplink
install -m 0644 "$here/systemd/spit-arcade-uplink.service" /etc/systemd/system/spit-arcade-uplink.service
if [ -f /etc/spit-arcade/venue/venue.toml ]; then
  chown -R root:spit-uplink /etc/spit-arcade/venue && chmod 0750 /etc/spit-arcade/venue
  chmod 0640 /etc/spit-arcade/venue/*
  systemctl enable spit-arcade-uplink.service
else
  systemctl disable spit-arcade-uplink.service 2>/dev/null || true
fi
# The updater: root, no capability, started by its socket (group spit: only the game may ask it);
# where RAUC is not configured (no /etc/rauc/system.conf) it says so to every request.
install -m 0644 "$here/systemd/spit-arcade-updater.socket" /etc/systemd/system/spit-arcade-updater.socket
install -m 0644 "$here/systemd/spit-arcade-updater.service" /etc/systemd/system/spit-arcade-updater.service
systemctl enable spit-arcade-updater.socket
# The link unit: a linked game's datagrams between the network and the game, started by its socket
# when the game opens a linked game (a [link] in its settings); a user of its own made at each start.
install -m 0644 "$here/systemd/spit-arcade-link.socket" /etc/systemd/system/spit-arcade-link.socket
install -m 0644 "$here/systemd/spit-arcade-link.service" /etc/systemd/system/spit-arcade-link.service
systemctl enable spit-arcade-link.socket
install -D -m 0755 "$here/systemd/fallback.sh" /usr/local/libexec/spit-arcade-fallback
install -D -m 0755 "$here/systemd/backoff.sh" /usr/local/libexec/spit-arcade-backoff
# The drivers of what may be plugged in later (a USB sound card, a pad's serial adapter), loaded at
# boot: the unit's DeviceAllow= resolves char-alsa, char-ttyUSB and char-ttyACM once, at its start,
# and only for drivers already loaded.
install -D -m 0644 "$here/systemd/modules-load.conf" /etc/modules-load.d/spit-arcade.conf

# --- the kiosk's keyboard reaches only the game
install -D -m 0644 "$here/systemd/logind.conf" /etc/systemd/logind.conf.d/spit-arcade.conf
install -D -m 0644 "$here/systemd/system.conf" /etc/systemd/system.conf.d/spit-arcade.conf
install -D -m 0644 "$here/systemd/sysctl.conf" /etc/sysctl.d/90-spit-arcade.conf
sysctl -q -p /etc/sysctl.d/90-spit-arcade.conf || true
systemctl mask ctrl-alt-del.target
systemctl disable getty@tty1.service 2>/dev/null || true
# A login on a serial port: masked, not disabled, because systemd's getty generator starts one on
# the kernel's serial console whatever is enabled (a Pi's header UART is console=serial0 by default).
for tty in ttyAMA0 ttyAMA10 ttyS0 ttyS1 hvc0; do
  systemctl mask "serial-getty@$tty.service" >/dev/null 2>&1 || true
done
remap=/etc/console-setup/remap.inc
if [ -d /etc/console-setup ] && ! grep -q "Spit Arcade" "$remap" 2>/dev/null; then
  cat "$here/systemd/console-remap.inc" >>"$remap"
  if command -v setupcon >/dev/null; then setupcon --force >/dev/null 2>&1 || true; fi
fi
# No console blanking (the kernel's consoleblank), no blinking cursor on the game's console.
for cmdline in /boot/firmware/cmdline.txt /boot/cmdline.txt; do
  if [ -f "$cmdline" ]; then
    grep -q "consoleblank=0" "$cmdline" || sed -i '1 s/$/ consoleblank=0/' "$cmdline"
    grep -q "vt.global_cursor_default=0" "$cmdline" || sed -i '1 s/$/ vt.global_cursor_default=0/' "$cmdline"
    break
  fi
done

systemctl enable spit-arcade.service
# check-config exits 2 when the files have mistakes (the game plays on with defaults for those);
# anything else means the installed program cannot run, and the install has failed.
rc=0
"$prefix/venv/bin/spit-arcade" check-config --cabinet || rc=$?
case "$rc" in
  0) ;;
  2) echo "install.sh: the game will use the built-in default for each problem above" >&2 ;;
  *) echo "install.sh: the installed game does not run (check-config exit $rc)" >&2; exit 1 ;;
esac
if [ -d /run/systemd/system ]; then   # a running system (not an image being built in a chroot)
  systemctl daemon-reload
  if [ "$start" = yes ]; then
    systemctl restart spit-arcade.service
    echo "Spit Arcade is running on tty1. Logs: journalctl -u spit-arcade -f"
  fi
  echo "Reboot once to apply the console, logind and kernel settings. Read-only root: see systemd/README.md."
else
  echo "install.sh: installed; the game starts at the next boot."
fi
