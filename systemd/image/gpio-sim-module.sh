#!/bin/sh
# Run by build-image.sh --test inside the new system: the kernel's gpio-sim driver, built as a module
# from Debian's own kernel source for Debian's own kernel (which is built without CONFIG_GPIO_SIM).
# Its interrupt simulator (kernel/irq/irq_sim.c, also off in Debian's build) goes into the same module.
# The build tools are removed again afterwards.
set -eu
kver="$(basename "$(ls -d /lib/modules/* | head -n1)")"
flavour="${kver#*-*-}"                      # 6.1.0-28-amd64 -> amd64
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq --no-install-recommends "linux-headers-$kver" linux-source-6.1 gcc make xz-utils >/dev/null
src=$(mktemp -d)
tar -C "$src" -xaf /usr/src/linux-source-6.1.tar.xz --strip-components=1 \
  linux-source-6.1/drivers/gpio/gpio-sim.c linux-source-6.1/drivers/gpio/gpiolib.h \
  linux-source-6.1/kernel/irq/irq_sim.c
mkdir -p "$src/m"
cp "$src/drivers/gpio/gpio-sim.c" "$src/m/gpio-sim-main.c"
cp "$src/drivers/gpio/gpiolib.h" "$src/m/gpiolib.h"
# Built into the kernel, irq_sim may call irq_to_desc(), which modules cannot: generic_handle_irq()
# runs the same handle_simple_irq() that irq_sim set for the line.
sed 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' \
  "$src/kernel/irq/irq_sim.c" >"$src/m/irq_sim.c"
grep -q 'generic_handle_irq(irqnum)' "$src/m/irq_sim.c"
printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n' >"$src/m/Makefile"
make -s -C "/lib/modules/$kver/build" M="$src/m" modules >/dev/null
install -D -m 0644 "$src/m/gpio-sim.ko" "/lib/modules/$kver/extra/gpio-sim.ko"
depmod "$kver"
rm -rf "$src"
apt-get purge -y -qq "linux-headers-$kver" "linux-headers-${kver%-$flavour}-common" "linux-kbuild-6.1" linux-source-6.1 gcc make >/dev/null 2>&1 || true
apt-get autoremove -y -qq >/dev/null 2>&1 || true
apt-get clean
echo "gpio-sim-module.sh: /lib/modules/$kver/extra/gpio-sim.ko" >&2
