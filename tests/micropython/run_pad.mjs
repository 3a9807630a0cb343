// The pad firmware (hardware/pad_firmware/main.py with appliance/inputs/protocol.py) on MicroPython's
// WebAssembly port, under Node, for tests/test_pad_firmware_micropython.py.
//
//     node run_pad.mjs MICROPYTHON_MJS FIRMWARE_DIR WIRE_FD CONTROL_FD
//
// Only `machine` is stubbed (machine.py beside this file, at the pin and UART level); the firmware's
// UART is the pty's other end (WIRE_FD, non-blocking), and the test drives the pins by writing lines
// "GP LEVEL" to CONTROL_FD (a non-blocking pipe). Bytes cross between MicroPython and JS as hex.
import fs from "fs";
import path from "path";
import { fileURLToPath } from "url";

const [mjs, firmware, wireArg, controlArg] = process.argv.slice(2);
const wire = Number(wireArg);
const control = Number(controlArg);
const { loadMicroPython } = await import(mjs);
const here = path.dirname(fileURLToPath(import.meta.url));

function readSome(fd, size) {
  const buf = Buffer.alloc(size);
  try {
    const n = fs.readSync(fd, buf, 0, size, null);
    return buf.subarray(0, n);
  } catch (error) {
    if (error.code === "EAGAIN" || error.code === "EWOULDBLOCK") return Buffer.alloc(0);
    throw error;
  }
}

let pending = "";
const padWire = {
  read: () => readSome(wire, 4096).toString("hex"),
  write: (hex) => {
    let data = Buffer.from(hex, "hex");
    while (data.length) {
      try {
        data = data.subarray(fs.writeSync(wire, data));
      } catch (error) {
        if (error.code !== "EAGAIN") throw error;
      }
    }
  },
  control: () => {
    pending += readSome(control, 256).toString("ascii");
    const end = pending.indexOf("\n");
    if (end < 0) return null;
    const line = pending.slice(0, end);
    pending = pending.slice(end + 1);
    return line;
  },
};

const mp = await loadMicroPython({
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
mp.registerJsModule("pad_wire", padWire);
mp.FS.writeFile("/protocol.py", fs.readFileSync(path.join(firmware, "protocol.py")));
mp.FS.writeFile("/main.py", fs.readFileSync(path.join(firmware, "main.py")));
mp.FS.writeFile("/machine.py", fs.readFileSync(path.join(here, "machine.py")));
try {
  mp.runPython(`
import sys
sys.path.insert(0, "/")
import main
print("firmware on", sys.implementation.name, sys.version)
main.LINK = "uart"
main.main()
`);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
