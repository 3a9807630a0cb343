#!/usr/bin/env bash
# Build a cabinet's disk image from Debian's packages (mmdebstrap, as root):
#   systemd/image/build-image.sh [--arch amd64|arm64] [--test] [--out DIR]
#
# Debian bookworm (the base of Raspberry Pi OS: systemd 252, Python 3.11) with the game installed the
# way a bar owner installs it: a clone of this repository in /root/spit-arcade and `systemd/install.sh
# --no-start` run in it, nothing else of the game's copied in (and the clone removed at the end). Then, as systemd/README.md says: the root
# file system read-only, the game's state (journals, audits, settings, credits) on a partition of its
# own (ext4, label spit-state, mounted at /var/lib/spit-arcade), /tmp, /var/tmp and /var/log in RAM.
#
#   amd64: GPT disk, an EFI system partition with systemd-boot (x86 mini PCs; what `spit-arcade
#          cabinet-test` boots under QEMU with OVMF), root, state.
#   arm64: MBR disk for the Raspberry Pi 4: a FAT boot partition filled by Debian's raspi-firmware
#          (the Pi's firmware, device trees, config.txt, cmdline.txt), root, state.
#
# --test adds what the virtual cabinet needs to look inside, and nothing else of the game changes:
# the kernel's gpio-sim (built as a module from Debian's kernel source: Debian's kernel lacks it) with
# a simulated chip of 28 lines wired as the Pi's header, the inputs set to that chip and to a slap pad
# on /dev/ttyUSB0, a root agent on a virtio-serial port (systemd/image/agent.py) and the kernel's
# console on the first serial port. Output: DIR/spit-arcade-bookworm-ARCH[-test].img
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
arch=amd64 test=no out="$repo/build/cabinet"
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch="$2"; shift 2 ;;
    --test) test=yes; shift ;;
    --out) out="$2"; shift 2 ;;
    *) echo "build-image.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
case "$arch" in amd64|arm64) ;; *) echo "build-image.sh: --arch is amd64 or arm64" >&2; exit 2 ;; esac
[ "$(id -u)" = 0 ] || { echo "build-image.sh: run as root (mmdebstrap, mkfs)" >&2; exit 1; }
for tool in mmdebstrap mkfs.ext4 mkfs.vfat mcopy sfdisk; do
  command -v "$tool" >/dev/null || { echo "build-image.sh: needs $tool (apt-get install mmdebstrap e2fsprogs dosfstools mtools fdisk)" >&2; exit 1; }
done
suffix=""
[ "$test" = yes ] && suffix=-test
name="spit-arcade-bookworm-$arch$suffix"
mkdir -p "$out"
work="$(mktemp -d "$out/.work.XXXXXX")"
cleanup() {
  # mmdebstrap stopped half-way (a signal) can leave /proc, /sys and /dev/pts mounted in the chroot:
  # unmount whatever is below the work folder before removing it, never remove through a mount.
  { grep -F " $work/" /proc/mounts || true; } | cut -d' ' -f2 | sort -r | while read -r target; do umount -l "$target" || true; done
  if grep -qF " $work/" /proc/mounts; then echo "build-image.sh: $work still has mounts; left in place" >&2; return; fi
  rm -rf "$work"
}
trap cleanup EXIT
root="$work/root"

# --- the clone a bar owner makes: what is committed, plus (for a developer's build) the uncommitted change
git clone --quiet --no-hardlinks "$repo" "$work/clone"
(cd "$repo" && git diff HEAD --binary) | (cd "$work/clone" && git apply --allow-empty 2>/dev/null || git apply)
(cd "$repo" && git ls-files --others --exclude-standard -z) | (cd "$repo" && xargs -0 -r cp --parents -t "$work/clone")
dirty=$(cd "$repo" && git status --porcelain | wc -l)
echo "build-image.sh: $name from $(cd "$repo" && git rev-parse --short HEAD) ($dirty files changed since)" >&2
commit="$(cd "$repo" && git rev-parse HEAD)"
[ "$dirty" -eq 0 ] || commit="$commit-dirty"

packages=(systemd systemd-sysv udev dbus kmod e2fsprogs procps iproute2 less
  python3 python3-venv git ca-certificates console-setup kbd
  libgl1-mesa-dri libegl1 libgbm1 libgles2 libasound2 alsa-utils)
components=main
case "$arch" in
  amd64) packages+=(linux-image-amd64 initramfs-tools systemd-boot-efi) ;;
  arm64) packages+=(linux-image-arm64 initramfs-tools raspi-firmware); components="main,non-free-firmware" ;;
esac
if [ "$test" = yes ]; then packages+=(gpiod); fi

hooks=()
if [ "$arch" = arm64 ]; then
  # Debian's raspi-firmware writes /boot/firmware/cmdline.txt when the kernel is installed, from
  # these: the root by label, read-only, no console blanking (install.sh edits cmdline.txt on
  # Raspberry Pi OS). Written before the kernel comes, so its initramfs is made once, not twice;
  # dpkg keeps these over the package's own /etc/default/raspi-firmware (force-confold, below).
  hooks+=(--essential-hook='mkdir -p "$1/etc/default" && printf "ROOTPART=LABEL=spit-root\nCONSOLES=\"tty1\"\n" >"$1/etc/default/raspi-firmware" && echo "ro consoleblank=0 vt.global_cursor_default=0" >"$1/etc/default/raspi-extra-cmdline"')
fi
hooks+=(
  # The build host's own certificate authorities (a proxy's, where downloads pass one) are trusted
  # while the image is built, for pip's downloads from PyPI, and taken out again at the end.
  --customize-hook='for c in /usr/local/share/ca-certificates/*.crt; do [ -f "$c" ] || continue; cp "$c" "$1/usr/local/share/ca-certificates/build-host-${c##*/}"; done; chroot "$1" update-ca-certificates >/dev/null 2>&1'
  # The bar owner's steps: a clone, then the installer (no start: nothing runs in a chroot).
  --customize-hook='mkdir -p "$1/root" && cp -a '"$work/clone"' "$1/root/spit-arcade"'
  --customize-hook='chroot "$1" env -u PIP_FIND_LINKS -u PIP_CONSTRAINT /root/spit-arcade/systemd/install.sh --no-start'
  --customize-hook='chroot "$1" env ARCH='"$arch"' TEST='"$test"' sh /root/spit-arcade/systemd/image/inside.sh'
)
if [ "$test" = yes ]; then
  hooks+=(--customize-hook='chroot "$1" sh /root/spit-arcade/systemd/image/gpio-sim-module.sh')
fi
# Last, the manifest of what the image runs, its Debian and Python packages (systemd/image/manifest.py,
# run by the kiosk's venv): the same for two builds of one commit on one day.
hooks+=(--customize-hook='chroot "$1" /opt/spit-arcade/venv/bin/python /root/spit-arcade/systemd/image/manifest.py --commit '"$commit"' --out /usr/share/spit-arcade/manifest.json')
# Only the game on the card: the clone it was installed from (the lab, the tests, the seeds) goes.
hooks+=(--customize-hook='rm -rf "$1/root/spit-arcade"')
hooks+=(--customize-hook='rm -f "$1"/usr/local/share/ca-certificates/build-host-*; chroot "$1" update-ca-certificates --fresh >/dev/null 2>&1')
mmdebstrap --arch="$arch" --variant=minbase --components="$components" \
  --include="$(IFS=,; echo "${packages[*]}")" \
  --aptopt='APT::Install-Recommends "false"' \
  --dpkgopt=force-confdef --dpkgopt=force-confold \
  "${hooks[@]}" \
  bookworm "$root"

# --- the partitions: built from folders (no loop devices, no mounts), then laid into one disk image
kver="$(basename "$(ls -d "$root"/lib/modules/* | head -n1)")"
mkdir -p "$work/state"
cp -a "$root/var/lib/spit-arcade/." "$work/state/"
rm -rf "${root:?}/var/lib/spit-arcade/"*
state_mb=256
boot_mb=256
root_mb=$(( $(du -sm "$root" | cut -f1) * 13 / 10 + 200 ))
mkfs.ext4 -q -L spit-state -d "$work/state" "$work/state.ext4" "${state_mb}M"
mkdir -p "$work/boot"
case "$arch" in
  amd64)
    mkdir -p "$work/boot/EFI/BOOT" "$work/boot/loader/entries"
    cp "$root/usr/lib/systemd/boot/efi/systemd-bootx64.efi" "$work/boot/EFI/BOOT/BOOTX64.EFI"
    cp "$root/boot/vmlinuz-$kver" "$work/boot/vmlinuz"
    cp "$root/boot/initrd.img-$kver" "$work/boot/initrd.img"
    printf 'default spit-arcade.conf\ntimeout 0\nconsole-mode keep\neditor no\n' >"$work/boot/loader/loader.conf"
    console="console=tty1"
    [ "$test" = yes ] && console="console=tty1 console=ttyS0,115200"
    printf 'title Spit Arcade\nlinux /vmlinuz\ninitrd /initrd.img\noptions root=LABEL=spit-root ro rootwait quiet consoleblank=0 vt.global_cursor_default=0 %s\n' \
      "$console" >"$work/boot/loader/entries/spit-arcade.conf"
    ;;
  arm64)
    cp -a "$root/boot/firmware/." "$work/boot/"
    rm -rf "${root:?}/boot/firmware/"*
    ;;
esac
mkfs.vfat -n SPITBOOT -C "$work/boot.vfat" $((boot_mb * 1024)) >/dev/null
(cd "$work/boot" && mcopy -s -i "$work/boot.vfat" ./* ::/)
mkfs.ext4 -q -L spit-root -d "$root" "$work/root.ext4" "${root_mb}M"

img="$out/$name.img"
total_mb=$((1 + boot_mb + root_mb + state_mb + 1))
rm -f "$img"
truncate -s "${total_mb}M" "$img"
label=gpt boot_type=U
[ "$arch" = arm64 ] && label=dos boot_type=c
sfdisk --quiet "$img" <<PARTS
label: $label
start=1MiB, size=${boot_mb}MiB, type=$boot_type, name=boot
size=${root_mb}MiB, type=L, name=root
size=${state_mb}MiB, type=L, name=state
PARTS
dd if="$work/boot.vfat" of="$img" bs=1M seek=1 conv=notrunc status=none
dd if="$work/root.ext4" of="$img" bs=1M seek=$((1 + boot_mb)) conv=notrunc status=none
dd if="$work/state.ext4" of="$img" bs=1M seek=$((1 + boot_mb + root_mb)) conv=notrunc status=none
echo "build-image.sh: $img ($(du -h --apparent-size "$img" | cut -f1); kernel $kver)" >&2
echo "$img"
