"""`spit-arcade cabinet-test` stopped by SIGTERM while it waits on the machine: its QEMU is stopped
and it exits with a partial report saying so. The machine and its checks are fakes (no image, no
QEMU); the waiting is real, and so is pygame's display (whose SDL, left alone, swallows SIGTERM)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

BOUND_S = 60.0  # the most the stopped run may take to exit before the test fails

RUN = textwrap.dedent("""
    import os, sys, threading
    from lab.cabinet import main

    class FakeMachine:
        def __init__(self, **kwargs):
            pass
        def prepare(self):
            pass
        def console(self):
            return ""
        def power_cut(self):
            print("fake machine: power cut", file=sys.stderr, flush=True)
        def shutdown(self):
            print("fake machine: shutdown", file=sys.stderr, flush=True)

    class FakeCabinet:
        def __init__(self, machine, report):
            self.report = report
        def first_boot(self):
            self.report.note("first boot", True)
            os.environ["SDL_VIDEODRIVER"] = "dummy"
            import pygame  # as the title's reference is drawn: SDL's own handlers would take SIGTERM
            pygame.display.init()
            print("fake cabinet: waiting on the machine", file=sys.stderr, flush=True)
            threading.Event().wait(float(sys.argv[2]))  # a boot that does not come
            self.report.note("the boot came", True)
        def exposure(self):
            pass
        def packaging(self):
            pass
        def close(self):
            print("fake cabinet: closed", file=sys.stderr, flush=True)

    main.missing_tools = lambda: []
    main.kvm_works = lambda: False
    main.image_mb = lambda image: 0.0
    main.last_partition_mb = lambda image: 0.0
    main.Machine = FakeMachine
    main.Cabinet = FakeCabinet
    sys.exit(main.main(["--json", "--image", sys.argv[1], "--only", "slots", "--out", sys.argv[3]]))
""")


def test_sigterm_while_waiting_stops_the_machine_and_reports_what_it_had(tmp_path: Path) -> None:
    image = tmp_path / "cabinet.img"
    image.write_bytes(b"")
    script = tmp_path / "run.py"
    script.write_text(RUN)
    env = {k: v for k, v in os.environ.items() if k != "SDL_NO_SIGNAL_HANDLERS"}  # (the run sets it itself)
    child = subprocess.Popen([sys.executable, str(script), str(image), str(BOUND_S * 4), str(tmp_path / "out")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                             cwd=Path(__file__).resolve().parents[1])
    try:
        said = []
        assert child.stderr is not None
        for line in child.stderr:  # until it waits (a line it writes, not a sleep)
            said.append(line)
            if "waiting on the machine" in line:
                break
        else:
            raise AssertionError("the run ended before it waited:\n" + "".join(said))
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=BOUND_S)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 128 + signal.SIGTERM, err
    assert "fake cabinet: closed" in err and "fake machine: power cut" in err  # its QEMU stopped
    assert "fake machine: shutdown" not in err  # (at once: not the minute-long clean power-off)
    assert "cabinet-test: stopped (SIGTERM during the first boot); 1 passed, 1 failed" in err
    report = json.loads(out.strip().splitlines()[-1])
    assert report["stopped"] == "SIGTERM during the first boot"
    assert report["checks"] == {"first boot": "ok",
                                "the run": "stopped by SIGTERM during the first boot: the report is partial"}
