// @ts-check
/**
 * The site's standard library with the modules its boot imports compiled, run by build.py:
 *
 *     node compile-stdlib.mjs PYODIDE_DIR CORE_WHEEL OUT_DIR
 *     node compile-stdlib.mjs --list PYODIDE_DIR CORE_WHEEL [ORIGINAL_ZIP]
 *
 * Boots Pyodide from PYODIDE_DIR (the site's copy, its python_stdlib.zip the trimmed
 * standard library as source) as the worker does (boot-core.mjs), then reads sys.modules:
 * the modules zipimport loaded from the standard library zip are the boot's (the frozen
 * and built-in ones are not in the zip's hands). In that same Python (so with its magic
 * number), doiname_build/bytecode.py replaces each one's `.py` by a `.pyc` and the script
 * writes OUT_DIR/python_stdlib.zip and OUT_DIR/modules.json (`{module: entry}`). Python
 * runs with PYTHONNODEBUGRANGES (line numbers kept, no column ranges: bytecode.py says
 * why).
 *
 * `--list` compiles nothing: it prints, as JSON, the runtime's magic number, the zip's
 * place and each module the boot took from it with its file; with ORIGINAL_ZIP (Pyodide's
 * own python_stdlib.zip) also the source hash of the original of each `.pyc` entry. The
 * build's tests run it on the built site.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { bootCore } from "./boot-core.mjs";

const args = process.argv.slice(2);
const list = args[0] === "--list";
const [pyodideDir, wheelPath, out] = list ? args.slice(1) : args;
if (!pyodideDir || !wheelPath || (!list && !out)) {
  console.error("usage: node compile-stdlib.mjs PYODIDE_DIR CORE_WHEEL OUT_DIR\n" +
    "       node compile-stdlib.mjs --list PYODIDE_DIR CORE_WHEEL [ORIGINAL_ZIP]");
  process.exit(2);
}
const env = list ? {} : { PYTHONNODEBUGRANGES: "1" };
const { pyodide } = await bootCore(pyodideDir, wheelPath, { env });

// sys.modules as the boot left it: read before this script imports anything itself.
const booted = JSON.parse(String(pyodide.runPython(`
def _boot_modules():
    items = list(sys.modules.items())
    import importlib.util, json, zipimport
    archive = next(p for p in sys.path if p.endswith(".zip"))
    found = {}
    for name, module in sorted(items):
        loader = getattr(getattr(module, "__spec__", None), "loader", None)
        if isinstance(loader, zipimport.zipimporter) and loader.archive == archive:
            found[name] = module.__file__[len(archive) + 1:]
    return json.dumps({"archive": archive, "magic": importlib.util.MAGIC_NUMBER.hex(),
                       "modules": found})
import sys
_boot_modules()`)));

if (list) {
  if (out) {
    pyodide.FS.writeFile("/tmp/original.zip", readFileSync(out));
    booted.sourceHashes = JSON.parse(String(pyodide.runPython(`
def _source_hashes():
    import importlib.util, json, zipfile
    with zipfile.ZipFile(${JSON.stringify(booted.archive)}) as shipped, \\
            zipfile.ZipFile("/tmp/original.zip") as original:
        return json.dumps({n: importlib.util.source_hash(original.read(n[:-1])).hex()
                           for n in shipped.namelist() if n.endswith(".pyc")})
_source_hashes()`)));
  }
  console.log(JSON.stringify(booted));
} else {
  const source = readFileSync(new URL("./doiname_build/bytecode.py", import.meta.url), "utf8");
  pyodide.globals.set("bytecode_source", source);
  pyodide.globals.set("boot_modules", pyodide.toPy(booted.modules));
  pyodide.runPython(`
def _compile():
    bytecode = {"__name__": "bytecode"}
    exec(compile(bytecode_source, "doiname_build/bytecode.py", "exec"), bytecode)
    archive = ${JSON.stringify(booted.archive)}
    with open(archive, "rb") as f:
        data = bytecode["compiled_zip"](f.read(), dict(boot_modules), archive)
    with open("/tmp/python_stdlib.zip", "wb") as f:
        f.write(data)
_compile()`);
  writeFileSync(resolve(out, "python_stdlib.zip"), pyodide.FS.readFile("/tmp/python_stdlib.zip"));
  writeFileSync(resolve(out, "modules.json"), JSON.stringify(booted.modules, null, 1) + "\n");
  console.log(JSON.stringify({ modules: Object.keys(booted.modules).length }));
}
