#!/usr/bin/env bash
# Build a cabinet's disk image from Debian's packages (mmdebstrap, as root):
#   systemd/image/build-image.sh [--arch amd64|arm64] [--test] [--out DIR] [--keyring CA.pem]
#                                [--bundle [--cert SIGNER.pem --key SIGNER.key]]
#
# Debian bookworm (the base of Raspberry Pi OS: systemd 252, Python 3.11) with the game installed the
# way a bar owner installs it: a clone of this repository in /root/spit-arcade and `systemd/install.sh
# --no-start` run in it, nothing else of the game's copied in (and the clone removed at the end). Then, as systemd/README.md says: the root
# file system read-only, the game's state (journals, audits, settings, credits) on a partition of its
# own (ext4, label spit-state, mounted at /var/lib/spit-arcade), /tmp, /var/tmp and /var/log in RAM.
#
#   amd64: GPT disk (x86 mini PCs; what `spit-arcade cabinet-test` boots under QEMU with OVMF): an EFI
#          system partition with systemd-boot and a loader entry a slot, two root slots (A holds
#          the system, B is empty until the first update: RAUC, signed bundles, boot counting), and
#          the state partition, which grows to fill the disk at the first boot (systemd-repart).
#          The updates' keyring is --keyring (a CA's certificate; default the development CA in
#          systemd/image/dev-keys/, for development only).
#   arm64: GPT disk for the Raspberry Pi 4, A/B with the firmware's tryboot (autoboot.txt): a small
#          first FAT partition (SPITBOOT: autoboot.txt, which boot partition the firmware starts), a
#          boot FAT partition a slot (filled by Debian's raspi-firmware: the Pi's firmware, device
#          trees, the kernel and initramfs, config.txt, and a cmdline file a slot naming its root),
#          two root slots (both hold the system as built), and the state partition, grown at the first
#          boot as on amd64. RAUC switches the slots (spit-slot-switch: systemd/image/tryboot-switch.sh).
#
# --test adds what the virtual cabinet needs to look inside, and nothing else of the game changes:
# the kernel's gpio-sim (built as a module from Debian's kernel source: Debian's kernel lacks it) with
# a simulated chip of 28 lines wired as the Pi's header, the inputs set to that chip and to a slap pad
# on /dev/ttyUSB0, a root agent on a virtio-serial port (systemd/image/agent.py) and the kernel's
# console on the first serial port. Output: DIR/spit-arcade-bookworm-ARCH[-test].img, and beside it
# .manifest.json: the version, the commit, the Debian and Python packages and their versions.
#
# --bundle also makes a signed RAUC update bundle of the build's root file system (make-bundle.sh):
# DIR/spit-arcade-VERSION-ARCH[-test].raucb, signed with --cert/--key (default: the development
# signer in systemd/image/dev-keys/, for tests only; systemd/README.md, "Your own signing key").
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
arch=amd64 test=no out="$repo/build/cabinet" keyring="$here/dev-keys/ca.cert.pem" bundle=no cert="" key=""
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch="$2"; shift 2 ;;
    --test) test=yes; shift ;;
    --out) out="$2"; shift 2 ;;
    --keyring) keyring="$(realpath "$2")"; shift 2 ;;
    --bundle) bundle=yes; shift ;;
    --cert) cert="$(realpath "$2")"; shift 2 ;;
    --key) key="$(realpath "$2")"; shift 2 ;;
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
out="$(cd "$out" && pwd)"  # (the partitions are filled from inside their folders)
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
  python3 python3-venv git ca-certificates console-setup kbd fonts-dejavu-core
  libgl1-mesa-dri libegl1 libgbm1 libgles2 libasound2 alsa-utils
  systemd-resolved wpasupplicant)  # the venue's network, started only when the venue is on (inside.sh)
components=main
case "$arch" in
  # cryptsetup-bin (veritysetup): the updater checks a bundle's blocks before RAUC installs it.
  amd64) packages+=(linux-image-amd64 initramfs-tools systemd-boot-efi systemd-boot rauc cryptsetup-bin) ;;
  arm64) packages+=(linux-image-arm64 initramfs-tools raspi-firmware firmware-brcm80211 rauc cryptsetup-bin); components="main,non-free-firmware" ;;
esac
if [ "$test" = yes ]; then packages+=(gpiod); fi

hooks=()
if [ "$arch" = arm64 ]; then
  # Debian's raspi-firmware writes /boot/firmware/cmdline.txt when the kernel is installed, from
  # these: the root by label, read-only, no console blanking (install.sh edits cmdline.txt on
  # Raspberry Pi OS). Written before the kernel comes, so its initramfs is made once, not twice;
  # dpkg keeps these over the package's own /etc/default/raspi-firmware (force-confold, below).
  hooks+=(--essential-hook='mkdir -p "$1/etc/default" && printf "ROOTPART=PARTLABEL=spit-root-a\nCONSOLES=\"tty1\"\n" >"$1/etc/default/raspi-firmware" && echo "ro consoleblank=0 vt.global_cursor_default=0" >"$1/etc/default/raspi-extra-cmdline"')
  # mkinitramfs, emulated by qemu-user on an x86 host (thousands of short processes: several a
  # module), is the longest step of this build, and dpkg ran it twice: for the kernel, then again
  # for initramfs-tools' trigger from the packages configured after it. Held while the packages
  # are installed (update-initramfs diverted to a no-op, as live-build does) and run once when all
  # are (the first customize hook): the initramfs the last of those runs made, made once. Its
  # post-update hook (raspi-firmware's) fills /boot/firmware then: the kernel, initramfs,
  # device trees, config.txt and cmdline.txt.
  hooks+=(--essential-hook='chroot "$1" dpkg-divert --quiet --local --rename --divert /usr/sbin/update-initramfs.held --add /usr/sbin/update-initramfs && printf "#!/bin/sh\necho \"update-initramfs: held until the packages are in (build-image.sh)\" >&2\n" >"$1/usr/sbin/update-initramfs" && chmod 0755 "$1/usr/sbin/update-initramfs"')
  hooks+=(--customize-hook='rm "$1/usr/sbin/update-initramfs" && chroot "$1" dpkg-divert --quiet --local --rename --remove /usr/sbin/update-initramfs && kver="$(basename "$(ls -d "$1"/lib/modules/* | head -n1)")" && chroot "$1" update-initramfs -c -k "$kver" >&2 && test -s "$1/boot/initrd.img-$kver" && test -s "$1/boot/firmware/initrd.img-$kver" && test -s "$1/boot/firmware/cmdline.txt"')
fi
hooks+=(
  # The build host's own certificate authorities (a proxy's, where downloads pass one) are trusted
  # while the image is built, for pip's downloads from PyPI, and taken out again at the end.
  --customize-hook='for c in /usr/local/share/ca-certificates/*.crt; do [ -f "$c" ] || continue; cp "$c" "$1/usr/local/share/ca-certificates/build-host-${c##*/}"; done; chroot "$1" update-ca-certificates >/dev/null 2>&1'
  # systemd-resolved's package pointed /etc/resolv.conf at its stub, which does not run in a chroot:
  # the build host's for pip's downloads (the stub's link is put back after mmdebstrap, below).
  --customize-hook='rm -f "$1/etc/resolv.conf" && cp -L /etc/resolv.conf "$1/etc/resolv.conf"'
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

# Names are resolved by systemd-resolved's stub (running only when the venue is on): set after
# mmdebstrap, which puts back its own /etc/resolv.conf at the end.
ln -sfn ../run/systemd/resolve/stub-resolv.conf "$root/etc/resolv.conf"

# --- the partitions: built from folders (no loop devices, no mounts), then laid into one disk image
kver="$(basename "$(ls -d "$root"/lib/modules/* | head -n1)")"
mkdir -p "$work/state"
cp -a "$root/var/lib/spit-arcade/." "$work/state/"
rm -rf "${root:?}/var/lib/spit-arcade/"*
state_mb=256
boot_mb=256
autoboot_mb=32  # arm64: the first partition, autoboot.txt alone
console="console=tty1"
# The test image runs under QEMU's emulated CPU: on a loaded host the kernel's check of the IO-APIC's
# timer can run out of time and panic at power-on ("IO-APIC + timer doesn't work!", seen after a
# power cut); virtual machines skip that check (no_timer_check, as cloud images do).
[ "$test" = yes ] && console="console=tty1 console=ttyS0,115200 no_timer_check"
if [ "$arch" = amd64 ]; then
  # Each root slot's own kernel command line (without the root, which names the slot): copied with
  # its kernel into its loader entry by spit-slot-switch when a slot is installed.
  mkdir -p "$root/etc/kernel" "$root/etc/rauc"
  echo "ro rootwait quiet consoleblank=0 vt.global_cursor_default=0 $console" >"$root/etc/kernel/cmdline"
fi
mkdir -p "$root/etc/rauc"
install -m 0644 "$keyring" "$root/etc/rauc/keyring.pem"
root_mb=$(( $(du -sm "$root" | cut -f1) * 13 / 10 + 200 ))
# amd64: each root slot is a partition of slot_mb; a root file system (this one, or a bundle's) may
# be as large as that. 2 GiB: twice today's root, on cards of 16 GB and more.
slot_mb=2048
if [ "$root_mb" -gt "$slot_mb" ]; then
  echo "build-image.sh: the root file system ($root_mb MiB) is larger than a slot ($slot_mb MiB)" >&2
  exit 1
fi
mkfs.ext4 -q -L spit-state -d "$work/state" "$work/state.ext4" "${state_mb}M"
mkdir -p "$work/boot"
case "$arch" in
  amd64)
    # systemd-boot boots the first of its entries that is not bad (no tries left), in the order
    # sort-key, then version downwards: slot A's entry, good, version 1. spit-slot-switch writes
    # slot B's (version 2, 3 tries) when an update is installed into it. systemd/README.md.
    mkdir -p "$work/boot/EFI/BOOT" "$work/boot/loader/entries" "$work/boot/spit-a"
    cp "$root/usr/lib/systemd/boot/efi/systemd-bootx64.efi" "$work/boot/EFI/BOOT/BOOTX64.EFI"
    cp "$root/boot/vmlinuz-$kver" "$work/boot/spit-a/vmlinuz"
    cp "$root/boot/initrd.img-$kver" "$work/boot/spit-a/initrd.img"
    printf 'default spit-*\ntimeout 0\nconsole-mode keep\neditor no\n' >"$work/boot/loader/loader.conf"
    printf 'title Spit Arcade (slot A)\nsort-key spit-arcade\nversion 1\nlinux /spit-a/vmlinuz\ninitrd /spit-a/initrd.img\noptions root=PARTLABEL=spit-root-a rauc.slot=A %s\n' \
      "$(cat "$root/etc/kernel/cmdline")" >"$work/boot/loader/entries/spit-a.conf"
    ;;
  arm64)
    # Each slot's boot partition: what raspi-firmware put in /boot/firmware, one image for both
    # slots (an update writes it with the root, as RAUC's slot class bootfs). The kernel's command
    # line a slot: config.txt picks it by the partition the firmware booted ([boot_partition=N]);
    # cmdline.txt (slot A's) is what a firmware without that filter would read.
    mkdir -p "$work/slotboot" "$work/autoboot"
    cp -a "$root/boot/firmware/." "$work/slotboot/"
    rm -rf "${root:?}/boot/firmware/"*
    line=$(sed -e 's/root=[^ ]*//' -e 's/  */ /g' -e 's/^ //' -e 's/ $//' "$work/slotboot/cmdline.txt")
    [ "$test" = yes ] && line="$line console=ttyAMA0"
    for s in a b; do
      printf 'root=PARTLABEL=spit-root-%s rauc.slot=%s %s\n' "$s" "$(echo "$s" | tr ab AB)" "$line" >"$work/slotboot/cmdline-$s.txt"
    done
    cp "$work/slotboot/cmdline-a.txt" "$work/slotboot/cmdline.txt"
    printf '\n# Spit Arcade: A/B slots (systemd/README.md): the kernel command line of the slot booted\n[boot_partition=2]\ncmdline=cmdline-a.txt\n[boot_partition=3]\ncmdline=cmdline-b.txt\n[all]\n' \
      >>"$work/slotboot/config.txt"
    # The card's first partition: autoboot.txt (Raspberry Pi's A/B example: partition 2 boots, a
    # reboot "0 tryboot" starts partition 3 once), and the operator's spit-venue/ if they add one.
    printf '[all]\ntryboot_a_b=1\nboot_partition=2\n[tryboot]\nboot_partition=3\n' >"$work/autoboot/autoboot.txt"
    mkfs.vfat -n SPITBOOT -C "$work/autoboot.vfat" $((autoboot_mb * 1024)) >/dev/null
    mcopy -i "$work/autoboot.vfat" "$work/autoboot/autoboot.txt" ::/
    mkfs.vfat -n SPITSLOT -C "$work/slotboot.vfat" $((boot_mb * 1024)) >/dev/null
    (cd "$work/slotboot" && mcopy -s -i "$work/slotboot.vfat" ./* ::/)
    ;;
esac
if [ "$arch" = amd64 ]; then
  mkfs.vfat -n SPITBOOT -C "$work/boot.vfat" $((boot_mb * 1024)) >/dev/null
  (cd "$work/boot" && mcopy -s -i "$work/boot.vfat" ./* ::/)
fi
mkfs.ext4 -q -L spit-root -d "$root" "$work/root.ext4" "${root_mb}M"

img="$out/$name.img"
rm -f "$img"
if [ "$arch" = amd64 ]; then
  # GPT: the ESP; root slots A and B (type root-x86-64, named: the loader entries and RAUC find
  # them by these names); the state partition, the only linux-generic one (systemd-repart grows it).
  total_mb=$((1 + boot_mb + 2 * slot_mb + state_mb + 1))
  truncate -s "${total_mb}M" "$img"
  sfdisk --quiet "$img" <<PARTS
label: gpt
start=1MiB, size=${boot_mb}MiB, type=U, name=boot
size=${slot_mb}MiB, type=4F68BCE3-E8CD-4DB1-96E7-FBCAF984B709, name=spit-root-a
size=${slot_mb}MiB, type=4F68BCE3-E8CD-4DB1-96E7-FBCAF984B709, name=spit-root-b
size=${state_mb}MiB, type=L, name=spit-state
PARTS
  state_at=$((1 + boot_mb + 2 * slot_mb))
  dd if="$work/boot.vfat" of="$img" bs=1M seek=1 conv=notrunc status=none
  dd if="$work/root.ext4" of="$img" bs=1M seek=$((1 + boot_mb)) conv=notrunc,sparse status=none
else
  # GPT (the Pi 4's bootloader reads GPT): autoboot.txt's partition; boot A and B (partitions 2
  # and 3, as autoboot.txt names them: FAT, basic data); root slots A and B (root-arm64, named as
  # on amd64); the state partition, the only linux-generic one (systemd-repart grows it).
  total_mb=$((1 + autoboot_mb + 2 * boot_mb + 2 * slot_mb + state_mb + 1))
  truncate -s "${total_mb}M" "$img"
  sfdisk --quiet "$img" <<PARTS
label: gpt
start=1MiB, size=${autoboot_mb}MiB, type=EBD0A0A2-B9E5-4433-87C0-68B6B72699C7, name=boot
size=${boot_mb}MiB, type=EBD0A0A2-B9E5-4433-87C0-68B6B72699C7, name=spit-boot-a
size=${boot_mb}MiB, type=EBD0A0A2-B9E5-4433-87C0-68B6B72699C7, name=spit-boot-b
size=${slot_mb}MiB, type=B921B045-1DF0-41C3-AF44-4C6F280D3FAE, name=spit-root-a
size=${slot_mb}MiB, type=B921B045-1DF0-41C3-AF44-4C6F280D3FAE, name=spit-root-b
size=${state_mb}MiB, type=L, name=spit-state
PARTS
  at=$((1 + autoboot_mb))
  dd if="$work/autoboot.vfat" of="$img" bs=1M seek=1 conv=notrunc status=none
  # Both slots hold the system as built (either boots; an update overwrites the other).
  dd if="$work/slotboot.vfat" of="$img" bs=1M seek=$at conv=notrunc,sparse status=none
  dd if="$work/slotboot.vfat" of="$img" bs=1M seek=$((at + boot_mb)) conv=notrunc,sparse status=none
  dd if="$work/root.ext4" of="$img" bs=1M seek=$((at + 2 * boot_mb)) conv=notrunc,sparse status=none
  dd if="$work/root.ext4" of="$img" bs=1M seek=$((at + 2 * boot_mb + slot_mb)) conv=notrunc,sparse status=none
  state_at=$((at + 2 * boot_mb + 2 * slot_mb))
fi
dd if="$work/state.ext4" of="$img" bs=1M seek=$state_at conv=notrunc status=none
echo "build-image.sh: $img ($(du -h --apparent-size "$img" | cut -f1); kernel $kver)" >&2

# --- the build's manifest: what it is made of, the same for two builds of one commit
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$repo/pyproject.toml" | head -n1)
commit=$(cd "$repo" && git rev-parse HEAD)
[ "$dirty" = 0 ] || commit="$commit+changes"
SOURCE_DATE_EPOCH=$(cd "$repo" && git log -1 --format=%ct)
export SOURCE_DATE_EPOCH
python3 - "$root" "$version" "$arch" "$test" "$commit" "$kver" >"$out/$name.manifest.json" <<'MANIFEST'
import json, pathlib, subprocess, sys
root, version, arch, test, commit, kernel = sys.argv[1:]
debian = subprocess.run(
    ["dpkg-query", f"--admindir={root}/var/lib/dpkg", "-W", "-f", "${Package} ${Version}\n"],
    capture_output=True, text=True, check=True,
).stdout.split("\n")
python = {}
for info in pathlib.Path(root, "opt/spit-arcade").glob("venv*/lib/python3*/site-packages/*.dist-info"):
    meta = {k: v for k, _, v in (line.partition(": ") for line in (info / "METADATA").read_text().splitlines()[:5])}
    python[meta.get("Name", info.name)] = meta.get("Version", "")
print(json.dumps({
    "name": "spit-arcade", "version": version, "arch": arch, "test_image": test == "yes", "commit": commit,
    "kernel": kernel,
    "debian": dict(sorted(line.split(" ", 1) for line in debian if line)),
    "python": dict(sorted(python.items())),
}, indent=1))
MANIFEST
echo "$img"

if [ "$bundle" = yes ]; then
  signer=()
  [ -z "$cert" ] || signer+=(--cert "$cert")
  [ -z "$key" ] || signer+=(--key "$key")
  [ "$arch" = amd64 ] || signer+=(--bootfs "$work/slotboot.vfat")  # the Pi's: a slot's boot partition too
  "$here/make-bundle.sh" --rootfs "$work/root.ext4" --arch "$arch" --version "$version" \
    --out "$out/spit-arcade-$version-$arch$suffix.raucb" --keyring "$keyring" "${signer[@]}" \
    --manifest "$out/$name.manifest.json" --description "Spit Arcade $version ($arch, ${commit:0:12})" >/dev/null
fi
