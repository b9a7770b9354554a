// @ts-check
// A minimal reproduction of a Pyodide 314.0.7 bug: a Python str whose bytes lie above
// 2 GiB of WebAssembly memory reaches JavaScript as the right number of U+0000
// characters instead of its text (a sign error on the pointer in the ASCII fast path of
// the str -> JS string conversion). Reproduced in Node alone, no page involved.
// Usage: node string_above_2gib.mjs <pyodide dir>; prints one JSON line:
// {"pyodide", "heap_mib", "address", "length", "intact"}.
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dir = resolve(process.argv[2] ?? "node_modules/pyodide");
const { loadPyodide, version } = await import(pathToFileURL(join(dir, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: `${dir}/` });
py.runPython(`
import json
ballast = [bytearray(256 * 1024 * 1024) for _ in range(8)]  # the heap grows past 2 GiB
answer = None
kept = []
for i in range(4000):  # JSON text, as the bridge answers, until one lands above 2 GiB
    text = json.dumps({"ok": "10.1000/" + "x" * (1 << 16) + str(i)})
    kept.append(text)
    if id(text) >= 1 << 31:
        answer = text
        break
`);
const address = py.runPython("id(answer) if answer is not None else None");
const text = py.globals.get("answer");
const expected = py.runPython("answer.encode('ascii').hex() if answer is not None else ''");
const intact = typeof text === "string" && Buffer.from(text, "latin1").toString("hex") === expected;
console.log(JSON.stringify({
  pyodide: version,
  heap_mib: py._module.HEAPU8.length / 2 ** 20,
  address,
  length: typeof text === "string" ? text.length : null,
  intact,
}));
