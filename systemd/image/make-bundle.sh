#!/usr/bin/env bash
# Make a signed RAUC update bundle of a cabinet's root file system:
#   systemd/image/make-bundle.sh --rootfs ROOT.ext4 --arch amd64|arm64 --version VERSION --out BUNDLE
#                                [--cert SIGNER.pem --key SIGNER.key] [--keyring CA.pem]
#                                [--manifest MANIFEST.json] [--description TEXT] [--changes CHANGES.txt]
#                                [--mksquashfs-args ARGS] [--bootfs BOOT.vfat]
# build-image.sh --bundle calls it with the root file system it has just built (and its manifest of
# Debian and Python packages). The bundle (verity format: the cabinet's kernel checks every block of
# it as it is installed) holds RAUC's manifest (compatible spit-arcade-ARCH: a cabinet refuses a
# bundle of the other architecture; the version; a description) and the root file system as the
# image of the `rootfs` slot class (and, for the Raspberry Pi 4, --bootfs: a slot's FAT boot partition
# as the image of the `bootfs` class, written with the root), plus our manifest (spit-manifest.json)
# beside it. --changes: a few
# lines of what the version changes (at most 600 characters), kept in the signed description after
# its first line: the service menu shows them before the operator installs it.
#
# It is signed with --cert/--key: by default the DEVELOPMENT key in systemd/image/dev-keys/, which
# every clone has (for tests and the virtual cabinet only); systemd/README.md shows how to make your
# own. The new bundle's signature is checked against --keyring (default: the development CA) before
# the bundle is kept: a key that the cabinets would refuse is caught here.
#
# Compressed with zstd at level 3 (--mksquashfs-args; the cabinets' kernels read squashfs's zstd):
# mksquashfs's own default, gzip at level 9, took 192 s of CPU (10 min 53 s on the loaded 2-core
# workplace) for today's 1.6 GB root file system and made 375 MiB; zstd -3 took 4 s of CPU (12 s)
# and made 379 MiB (systemd/README.md, "Update bundles").
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
keys="$here/dev-keys"
bootfs="" rootfs="" arch="" version="" out="" manifest="" description="" changes="" squash="-comp zstd -Xcompression-level 3"
cert="$keys/signer.cert.pem" key="$keys/signer.key.pem" keyring="$keys/ca.cert.pem"
while [ $# -gt 0 ]; do
  case "$1" in
    --rootfs) rootfs="$2"; shift 2 ;;
    --arch) arch="$2"; shift 2 ;;
    --version) version="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --cert) cert="$2"; shift 2 ;;
    --key) key="$2"; shift 2 ;;
    --keyring) keyring="$2"; shift 2 ;;
    --manifest) manifest="$2"; shift 2 ;;
    --description) description="$2"; shift 2 ;;
    --changes) changes="$2"; shift 2 ;;
    --mksquashfs-args) squash="$2"; shift 2 ;;
    --bootfs) bootfs="$2"; shift 2 ;;
    *) echo "make-bundle.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$rootfs" ] && [ -n "$arch" ] && [ -n "$version" ] && [ -n "$out" ] || {
  echo "make-bundle.sh: needs --rootfs, --arch, --version and --out" >&2; exit 2; }
case "$arch" in amd64|arm64) ;; *) echo "make-bundle.sh: --arch is amd64 or arm64" >&2; exit 2 ;; esac
[ -f "$rootfs" ] || { echo "make-bundle.sh: no root file system $rootfs" >&2; exit 2; }
for tool in rauc mksquashfs; do
  command -v "$tool" >/dev/null || { echo "make-bundle.sh: needs $tool (apt-get install rauc squashfs-tools)" >&2; exit 1; }
done
case "$version" in *[!0-9A-Za-z.+~-]*|"") echo "make-bundle.sh: version '$version' is not a version" >&2; exit 2 ;; esac
if [[ "$cert" == "$keys/"* ]]; then
  echo "make-bundle.sh: signing with the DEVELOPMENT key (systemd/image/dev-keys/): for tests only" >&2
fi

dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/bundle"
# The root file system goes into the bundle by name (a hard link where it can, not a second copy).
ln "$rootfs" "$dir/bundle/rootfs.ext4" 2>/dev/null || cp "$rootfs" "$dir/bundle/rootfs.ext4"
[ -z "$manifest" ] || cp "$manifest" "$dir/bundle/spit-manifest.json"
if [ -n "$bootfs" ]; then
  [ -f "$bootfs" ] || { echo "make-bundle.sh: no boot file system $bootfs" >&2; exit 2; }
  ln "$bootfs" "$dir/bundle/bootfs.vfat" 2>/dev/null || cp "$bootfs" "$dir/bundle/bootfs.vfat"
fi
{
  echo "[update]"
  echo "compatible=spit-arcade-$arch"
  echo "version=$version"
  # (GKeyFile's escapes: a backslash doubled, a new line as \n)
  echo "description=${description:-Spit Arcade $version for $arch}$(
    [ -z "$changes" ] || { printf '\\n'; head -c 600 "$changes" | sed 's/\\/\\\\/g' | sed ':a;N;$!ba;s/\n/\\n/g'; })"
  echo "build=$(date -u ${SOURCE_DATE_EPOCH:+-d "@$SOURCE_DATE_EPOCH"} +%Y-%m-%dT%H:%M:%SZ)"  # the commit's time, if given
  echo
  echo "[bundle]"
  echo "format=verity"
  echo
  echo "[image.rootfs]"
  echo "filename=rootfs.ext4"
  if [ -n "$bootfs" ]; then
    echo
    echo "[image.bootfs]"
    echo "filename=bootfs.vfat"
  fi
} >"$dir/bundle/manifest.raucm"
rm -f "$out"
rauc bundle --cert="$cert" --key="$key" --keyring="$keyring" --mksquashfs-args="$squash" "$dir/bundle" "$out" >&2
echo "make-bundle.sh: $out ($(du -h "$out" | cut -f1); spit-arcade-$arch $version)" >&2
echo "$out"
