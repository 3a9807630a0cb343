#!/usr/bin/env bash
# Install the cabinet's kiosk service on Raspberry Pi OS Lite (run as root from a clone of this repo):
#   sudo systemd/install.sh
# Copies the program to /opt/spit-arcade, builds its venv there, makes the `spit` user, puts the
# inputs configuration in /etc/spit-arcade/ (kept if already there) and starts the service.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ "$(id -u)" = 0 ] || { echo "install.sh: run as root (sudo)" >&2; exit 1; }
id spit >/dev/null 2>&1 || useradd --system --create-home --shell /usr/sbin/nologin spit
for group in video render input audio gpio dialout; do
  getent group "$group" >/dev/null && usermod -aG "$group" spit
done
mkdir -p /opt/spit-arcade /etc/spit-arcade
cp -a "$here/." /opt/spit-arcade/
rm -rf /opt/spit-arcade/.venv
(cd /opt/spit-arcade && ./spit --help >/dev/null)   # builds the venv (system site packages on a Pi: lgpio)
[ -f /etc/spit-arcade/inputs.toml ] || cp /opt/spit-arcade/appliance/inputs/default.toml /etc/spit-arcade/inputs.toml
install -m 0644 /opt/spit-arcade/systemd/spit-arcade.service /etc/systemd/system/spit-arcade.service
systemctl daemon-reload
systemctl enable --now spit-arcade.service
echo "Spit Arcade is running on tty1. Logs: journalctl -u spit-arcade -f"
