"""One virtual cabinet: QEMU running the cabinet's disk image, watched and driven from outside.

The machine has what a cabinet has: a screen (virtio-vga: SDL's KMSDRM draws on it as on a Pi's
HDMI), a USB keyboard, a sound card (intel-hda, or none until one is plugged in), and USB ports for a
slap pad's serial adapter. QMP drives it from outside: screen dumps, key presses, hot-plugging, and the
power cut (`quit`: the machine stops at once, nothing is shut down or synced). The kernel's serial
console goes to a file (`console.log`). The agent (systemd/image/agent.py, test images only) answers on
a virtio-serial port: unit states, the journal, the simulated GPIO lines of the panels.

The disk is a qcow2 overlay on the image, kept across boots of one run: what a power cut leaves is what
the next boot finds. It is larger than the image (`grow_mb`), as a card is: the state partition must
grow into the rest at the first boot. KVM is used when asked for and it answers; emulation (TCG) otherwise.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .pi_card import partition_offset

OVMF_CODE = ("/usr/share/OVMF/OVMF_CODE_4M.fd", "/usr/share/OVMF/OVMF_CODE.fd")
OVMF_VARS = ("/usr/share/OVMF/OVMF_VARS_4M.fd", "/usr/share/OVMF/OVMF_VARS.fd")
AGENT_PORT = "org.spitarcade.agent"


class VmError(RuntimeError):
    """The machine did not do what was asked in time (with what it said)."""


def first_existing(paths: tuple[str, ...]) -> str:
    for path in paths:
        if os.path.exists(path):
            return path
    raise VmError(f"none of {', '.join(paths)} (apt-get install ovmf)")


@dataclass
class Machine:
    image: Path
    workdir: Path
    accel: str = "tcg"  # "kvm" where it works
    memory_mb: int = 1536
    cpus: int = 2
    gpu: str = "virtio-vga"  # the screen's device
    # qemu64 (QEMU's default) lacks x86-64-v2, which the wheels are built for. AVX is left out:
    # QEMU 7.2's TCG runs llvmpipe's AVX code wrongly (the game died of SIGSEGV at its first GLES2
    # frame, 5 runs of 5; with 128-bit vectors it drew), and a Pi draws on its GPU, not llvmpipe.
    # With it every extension that uses its registers goes (avx=off alone: coreutils' wc took AVX2
    # and died of an invalid opcode).
    cpu: str = "max,avx=off,avx2=off,fma=off,f16c=off,vaes=off,vpclmulqdq=off"
    sound: bool = True  # a sound card from the start (False: none until plug_sound)
    pad_chardev: str | None = None  # a host serial device (the pad emulator's pty) for the USB adapter
    grow_mb: int = 1024  # the disk is this much larger than the image
    process: subprocess.Popen[bytes] | None = None
    boots: int = 0
    _qmp: Any = None
    _agent: socket.socket | None = None
    _agent_buffer: bytes = b""
    _next_id: int = 1
    started_at: float = 0.0
    extra: list[str] = field(default_factory=list)
    guest_forward: str = ""  # a guestfwd rule for the user network (the venue step's broker), or none

    # --- the machine's life

    def prepare(self) -> None:
        """A fresh disk (an overlay on the image) and firmware variables for this run."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        disk = self.workdir / "disk.qcow2"
        disk.unlink(missing_ok=True)
        size = self.image.stat().st_size + self.grow_mb * 2**20
        backing = ["-b", str(self.image.resolve()), "-F", "raw"]
        subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", *backing, str(disk), str(size)], check=True)
        shutil.copyfile(first_existing(OVMF_VARS), self.workdir / "vars.fd")

    def command(self) -> list[str]:
        w = self.workdir
        nic = "user,model=virtio-net-pci,restrict=on"
        if self.guest_forward:  # one address in the guest's network carried to the host (the venue's broker)
            nic += f",guestfwd={self.guest_forward}"
        cmd = [
            "qemu-system-x86_64",
            "-machine", "q35",
            "-accel", self.accel,
            "-cpu", self.cpu,
            "-m", str(self.memory_mb),
            "-smp", str(self.cpus),
            "-drive", f"if=pflash,format=raw,readonly=on,file={first_existing(OVMF_CODE)}",
            "-drive", f"if=pflash,format=raw,file={w / 'vars.fd'}",
            # cache=unsafe: QEMU skips the host's fsync at the guest's flushes, and nothing else. The
            # guest still sees a disk with a write cache and flushes it as it would a card; at each flush
            # QEMU still hands its own cached qcow2 tables to the host (block/io.c: "Write back cached
            # data to the OS even with cache=unsafe"). QEMU's docs name the risk as a *host* failure
            # ("your host losing power, the disk storage getting disconnected"); the lab's power cut is
            # QEMU stopped (`quit`, or killed) on a running host, whose page cache keeps every write
            # QEMU made, so the next boot finds the same disk either way. The host's fsyncs only cost
            # time, a lot of it on a loaded host.
            "-drive", f"file={w / 'disk.qcow2'},format=qcow2,if=virtio,cache=unsafe",
            "-device", self.gpu,
            "-display", "none",
            # An Ethernet port, as a cabinet has: QEMU's user network (DHCP at 10.0.2.2), restricted
            # (nothing leaves for the host's network). The image configures it only when the venue is on.
            "-nic", nic,
            "-serial", f"file:{w / 'console.log'}",
            "-qmp", f"unix:{w / 'qmp.sock'},server=on,wait=off",
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=agent,path={w / 'agent.sock'},server=on,wait=off",
            "-device", f"virtserialport,chardev=agent,name={AGENT_PORT}",
            "-device", "qemu-xhci,id=xhci",
            "-device", "usb-kbd,id=kbd,bus=xhci.0",
            "-audiodev", "none,id=snd0",
        ]  # fmt: skip
        if self.sound:
            cmd += ["-device", "intel-hda", "-device", "hda-duplex,audiodev=snd0"]
        if self.pad_chardev:
            cmd += ["-chardev", f"serial,id=pad,path={self.pad_chardev}", "-device", "usb-serial,id=padusb,chardev=pad"]
        return cmd + self.extra

    def start(self) -> None:
        """Power on (the disk as the last power cut or shutdown left it)."""
        for name in ("qmp.sock", "agent.sock"):
            (self.workdir / name).unlink(missing_ok=True)
        log = open(self.workdir / "qemu.log", "ab")  # noqa: SIM115 (the process keeps it)
        self.process = subprocess.Popen(self.command(), stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        self.started_at = time.monotonic()
        self.boots += 1
        self._qmp = None
        self._agent = None
        self._agent_buffer = b""
        self._wait_path(self.workdir / "qmp.sock", 30)
        from qemu.qmp.legacy import QEMUMonitorProtocol

        qmp = QEMUMonitorProtocol(str(self.workdir / "qmp.sock"))
        qmp.connect()
        self._qmp = qmp

    def power_cut(self) -> None:
        """The plug pulled: QEMU stops at once; nothing in the machine is told or synced."""
        if self.process is None:
            return
        with contextlib.suppress(Exception):
            self._qmp.cmd("quit")
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._close_channels()
        self.process = None

    def shutdown(self) -> None:
        """A clean power-off (the end of a run), or a power cut if it does not come."""
        if self.process is None:
            return
        with contextlib.suppress(Exception):
            self.sh("systemctl poweroff --no-block", timeout=5)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=60)
        self.power_cut()

    def _close_channels(self) -> None:
        with contextlib.suppress(Exception):
            if self._qmp is not None:
                self._qmp.close()
        with contextlib.suppress(Exception):
            if self._agent is not None:
                self._agent.close()
        self._qmp = None
        self._agent = None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def _wait_path(self, path: Path, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not path.exists():
            if not self.alive():
                raise VmError(f"QEMU stopped: {self.qemu_log()[-2000:]}")
            if time.monotonic() > deadline:
                raise VmError(f"no {path.name} after {timeout} s")
            time.sleep(0.05)

    def qemu_log(self) -> str:
        return (self.workdir / "qemu.log").read_text(errors="replace")

    def console(self) -> str:
        path = self.workdir / "console.log"
        return path.read_text(errors="replace") if path.exists() else ""

    # --- QMP: what is done to the machine from outside

    def qmp(self, command: str, **args: Any) -> Any:
        return self._qmp.cmd(command, **args)

    def screendump(self, path: Path) -> Path:
        path.unlink(missing_ok=True)
        self.qmp("screendump", filename=str(path.resolve()))
        return path

    def keys(self, *names: str, hold_s: float = 0.06, times: int = 1) -> None:
        """Press and release keys together on the USB keyboard (QMP input-send-event, qcodes)."""
        down = [{"type": "key", "data": {"down": True, "key": {"type": "qcode", "data": n}}} for n in names]
        up = [{"type": "key", "data": {"down": False, "key": {"type": "qcode", "data": n}}} for n in reversed(names)]
        for _ in range(times):
            self.qmp("input-send-event", events=down)
            time.sleep(hold_s)
            self.qmp("input-send-event", events=up)
            time.sleep(hold_s)

    # --- the agent: what is asked of the machine from inside (test images only)

    def connect_agent(self, timeout: float) -> float:
        """Wait until the agent answers; the seconds since power-on."""
        deadline = time.monotonic() + timeout
        self._wait_path(self.workdir / "agent.sock", timeout)
        while True:
            try:
                if self._agent is None:
                    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    sock.connect(str(self.workdir / "agent.sock"))
                    self._agent = sock
                self.request({"now": True}, timeout=3)
                return time.monotonic() - self.started_at
            except (OSError, VmError):
                if not self.alive():
                    raise VmError(f"QEMU stopped: {self.qemu_log()[-2000:]}") from None
                if time.monotonic() > deadline:
                    raise VmError(f"the agent did not answer in {timeout} s") from None
                time.sleep(0.5)

    def request(self, message: dict[str, Any], timeout: float = 60) -> dict[str, Any]:
        if self._agent is None:
            raise VmError("no agent channel")
        ident = self._next_id
        self._next_id += 1
        self._agent.sendall(json.dumps({**message, "id": ident}).encode() + b"\n")
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in self._agent_buffer:
                line, self._agent_buffer = self._agent_buffer.split(b"\n", 1)
                try:
                    reply = json.loads(line)
                except ValueError:
                    continue
                if reply.get("id") == ident:
                    return dict(reply)
            left = deadline - time.monotonic()
            if left <= 0:
                raise VmError(f"the agent did not answer {message} in {timeout} s")
            self._agent.settimeout(left)
            try:
                chunk = self._agent.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                self._agent = None
                raise VmError("the agent's channel closed")
            self._agent_buffer += chunk

    def sh(self, command: str, timeout: float = 60) -> tuple[int, str]:
        reply = self.request({"sh": command, "timeout": timeout}, timeout=timeout + 10)
        return int(reply.get("rc", 1)), str(reply.get("out", ""))

    def out(self, command: str, timeout: float = 60) -> str:
        return self.sh(command, timeout)[1].strip()


def boot_arm64(image: Path, workdir: Path, timeout: float = 1800, slot: str = "B") -> dict[str, Any]:
    """The Raspberry Pi 4 image, booted emulated as far as QEMU can take it: QEMU 7.2 (bookworm's)
    has no Pi 4 machine, so the kernel and initramfs that `slot`'s boot partition's config.txt names
    are taken off the card and booted on QEMU's generic arm64 machine (`virt`, virtio-gpu), with the
    command line that config.txt gives that partition (its cmdline file: the slot's root by name) and
    the card as the disk (an overlay, 1 GiB larger: the state partition grows into it). The Pi's
    firmware, autoboot.txt's choice, its device tree and its GPIO pins are what this cannot run
    (`pi_card` reads what it can of them from the card). The kernel's console (the first serial
    port) says when systemd has started the game: with Type=notify that is READY=1, sent after the
    first frame was drawn; journald forwards the game's own lines there too (its video driver and
    screen size, the scene and words of that first frame) and spit-arcade-boot-ok's: slot B is not
    the slot autoboot.txt boots, so this is a trial boot, and when the game is up the check commits
    it (autoboot.txt, read off the disk after: `[all] boot_partition=3`).
    {"slot", "cmdline", "started_s": seconds or None, "video_driver", "screen_size", "on_screen",
     "boot_ok": the check's line, "autoboot": autoboot.txt after, "marked_bad": the slots marked bad after,
     "committed": bool, "console": its tail}."""
    from .pi_card import AUTOBOOT, SLOTS, boot_files, boot_text, config_values

    workdir.mkdir(parents=True, exist_ok=True)
    boot = workdir / "boot"
    boot.mkdir(exist_ok=True)
    number = SLOTS[slot][0]
    start = partition_offset(image, number)
    files = {name.lower(): name for name in boot_files(image, number)}
    config = config_values(boot_text(image, files.get("config.txt", "config.txt"), number), number)
    for name, wanted in (("vmlinuz", config.get("kernel", "")), ("initrd.img", config.get("initramfs", ""))):
        if wanted.lower() not in files:
            raise VmError(f"config.txt of boot partition {number} names {wanted or 'no file'} for {name}: not there")
        subprocess.run(["mcopy", "-o", "-i", f"{image}@@{start}", f"::/{files[wanted.lower()]}", str(boot / name)],
                       check=True)  # fmt: skip
    cmdline = boot_text(image, files.get(config.get("cmdline", "cmdline.txt").lower(), "cmdline.txt"), number).strip()
    disk = workdir / "disk.qcow2"
    disk.unlink(missing_ok=True)
    size = str(image.stat().st_size + 2**30)
    backing = ["-b", str(image.resolve()), "-F", "raw"]
    subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", *backing, str(disk), size], check=True)
    console = workdir / "console.log"
    console.unlink(missing_ok=True)
    # The Pi 4's own processor, Cortex-A72 (Armv8.0): `max` has pointer authentication, which
    # Debian's kernel and packages use at every call and TCG computes slowly (QARMA).
    cmd = [
        "qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72", "-m", "2048", "-smp", "2",
        "-kernel", str(boot / "vmlinuz"), "-initrd", str(boot / "initrd.img"),
        "-append", f"{cmdline} console=ttyAMA0 systemd.show_status=1"
                   " systemd.journald.forward_to_console=1",  # (the game's own lines too)
        "-drive", f"file={disk},format=qcow2,if=virtio",
        "-device", "virtio-gpu-pci", "-display", "none", "-nic", "none",
        "-device", "qemu-xhci", "-device", "usb-kbd",
        "-serial", f"file:{console}",
    ]  # fmt: skip
    started = time.monotonic()
    process = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    found: float | None = None
    checked = False
    try:
        while time.monotonic() - started < timeout and process.poll() is None:
            text = console.read_text(errors="replace") if console.exists() else ""
            if found is None and "Started spit-arcade.service" in text:
                found = time.monotonic() - started
            if "spit-arcade-boot-ok.service" in text and re.search(
                r"(Finished|Failed|Skipped|skipped).*spit-arcade-boot-ok|spit-arcade-boot-ok.*(Skipped|skipped|exec-condition)",
                text,
            ):
                checked = True
                time.sleep(5)  # (its sync and remount done)
                break
            time.sleep(2)
    finally:
        process.kill()
        process.wait()
    text = console.read_text(errors="replace") if console.exists() else ""
    said = re.search(r"spit-arcade: video driver (\S+), (\d+)x(\d+)", text)
    shown = re.search(r"spit-arcade: ready; on the screen: ([^\r\n]*)", text)
    verdict = re.search(r"spit-arcade-boot-ok: ([^\r\n]*)", text)
    first = workdir / "autoboot.vfat"
    first.unlink(missing_ok=True)
    at_mib = partition_offset(image, AUTOBOOT) // 2**20
    subprocess.run(["qemu-img", "dd", "-f", "qcow2", "-O", "raw", "bs=1M", f"skip={at_mib}", "count=32",
                    f"if={disk}", f"of={first}"], check=True, capture_output=True)  # fmt: skip
    autoboot = subprocess.run(["mtype", "-i", str(first), "::/autoboot.txt"], capture_output=True, text=True).stdout
    listed = subprocess.run(["mdir", "-b", "-i", str(first), "::/"], capture_output=True, text=True).stdout
    marked = sorted(name.removeprefix("::/") for name in listed.split() if name.lower().endswith(".bad"))
    from .pi_card import autoboot_values

    values = autoboot_values(autoboot)
    return {
        "slot": slot,
        "cmdline": cmdline,
        "started_s": round(found, 1) if found is not None else None,
        "video_driver": said.group(1).rstrip(",") if said else "",
        "screen_size": [int(said.group(2)), int(said.group(3))] if said else [],
        "on_screen": shown.group(1).strip() if shown else "",
        "boot_ok_ran": checked,
        "boot_ok": verdict.group(1).strip() if verdict else "",
        "autoboot": autoboot,
        "marked_bad": marked,  # slot-B.bad: the check found the game not up, and the slot is not to boot
        "committed": values["all"].get("boot_partition") == str(number)
        and values.get("tryboot", {}).get("boot_partition") == str(SLOTS["A" if slot == "B" else "B"][0]),
        "console": text[-3000:],
    }
