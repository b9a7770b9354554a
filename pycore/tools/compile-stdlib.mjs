// @ts-check
/**
 * The site's standard library with the modules its boot imports compiled, and the core's
 * files as micropip installs them, compiled, run by build.py:
 *
 *     node compile-stdlib.mjs PYODIDE_DIR CORE_WHEEL OUT_DIR
 *     node compile-stdlib.mjs --list PYODIDE_DIR CORE_FILES STDLIB [ORIGINAL_ZIP [CORE_WHEEL]]
 *
 * First, in one Pyodide from PYODIDE_DIR (the site's copy, its python_stdlib.zip the
 * trimmed standard library as source), micropip installs CORE_WHEEL (boot-core.mjs,
 * `installCore`) and doiname_build/bytecode.py (`installed_zip`) compiles the files it
 * wrote: OUT_DIR/core-files.zip. Then a second
 * Pyodide boots as the worker does (`bootCore`: that zip unpacked, `doiname.bridge`
 * imported and asked its first answer) and sys.modules is read: the modules zipimport
 * loaded from the standard library zip are the boot's (the frozen and built-in ones are
 * not in the zip's hands). In that same Python (so with its magic number), bytecode.py
 * replaces each one's `.py` by a `.pyc` and leaves out the source of each module the
 * runtime has frozen (its import never reads the zip); the script writes
 * OUT_DIR/python_stdlib.zip and OUT_DIR/modules.json (`{module: entry}`),
 * OUT_DIR/core.json the core's files the boot imported (their names in site-packages),
 * and OUT_DIR/warm.bin the record of that boot's import of the core (doiname.warm), with
 * OUT_DIR/warm.json its place in site-packages (`{entry}`).
 * Python runs with PYTHONNODEBUGRANGES (line numbers kept, no column ranges: bytecode.py
 * says why).
 *
 * `--list` compiles nothing: it boots the worker's way from the built site's files (STDLIB,
 * the standard library's modules the boot imports, mounted as the standard library: an
 * import of any other fails) and prints, as JSON, the runtime's magic number, the zip's place and each module the boot
 * took from it with its file, the core's modules with theirs, the runtime's frozen
 * modules, and what the import took from the core's record (`warmed`: doiname.warm
 * `seen`); with ORIGINAL_ZIP (Pyodide's own python_stdlib.zip) also the source hash of the
 * original of each `.pyc` entry, and with CORE_WHEEL that of each `.py` of the wheel. The
 * build's tests run it on the built site.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { bootCore, installCore } from "./boot-core.mjs";

const args = process.argv.slice(2);
const list = args[0] === "--list";
const usage =
  "usage: node compile-stdlib.mjs PYODIDE_DIR CORE_WHEEL OUT_DIR\n" +
  "       node compile-stdlib.mjs --list PYODIDE_DIR CORE_FILES STDLIB [ORIGINAL_ZIP [CORE_WHEEL]]";
const [pyodideDir, wheelOrFiles, third, fourth, fifth] = list ? args.slice(1) : args;
if (!pyodideDir || !wheelOrFiles || !third) {
  console.error(usage);
  process.exit(2);
}
const bytecodeSource = readFileSync(new URL("./doiname_build/bytecode.py", import.meta.url), "utf8");
const env = list ? {} : { PYTHONNODEBUGRANGES: "1" };
// The standard library the boot mounts: the site's python_stdlib.zip while it is made, the
// built site's boot part with --list.
const stdlibOption = list ? { stdLibURL: resolve(third) } : {};
let coreFiles = wheelOrFiles;
if (!list) {
  const out = third;
  const installed = await installCore(pyodideDir, wheelOrFiles, { env });
  const sitePackages = installed.sitePackages;
  installed.pyodide.globals.set("bytecode_source", bytecodeSource);
  installed.pyodide.runPython(`
def _compile_core():
    import glob, os
    bytecode = {"__name__": "bytecode"}
    exec(compile(bytecode_source, "doiname_build/bytecode.py", "exec"), bytecode)
    site = ${JSON.stringify(sitePackages)}
    (dist_info,) = [os.path.basename(p) for p in glob.glob(site + "/doiname-*.dist-info")]
    with open("/tmp/core-files.zip", "wb") as f:
        f.write(bytecode["installed_zip"](site, dist_info))
_compile_core()`);
  coreFiles = resolve(out, "core-files.zip");
  writeFileSync(coreFiles, installed.pyodide.FS.readFile("/tmp/core-files.zip"));
}
const { pyodide, sitePackages, record, warmed } = await bootCore(
  pyodideDir,
  coreFiles,
  { env, ...stdlibOption },
  { record: !list },
);

// sys.modules as the boot left it: read before this script imports anything itself.
const booted = JSON.parse(String(pyodide.runPython(`
def _boot_modules():
    items = list(sys.modules.items())
    import importlib.util, json, zipimport
    import _imp
    archive = next(p for p in sys.path if p.endswith(".zip"))
    found, core = {}, {}
    # Frozen: in the runtime itself (and those the boot took from it under another name,
    # importlib._bootstrap as _frozen_importlib): never read from the zip.
    frozen = set(_imp._frozen_module_names())
    for name, module in sorted(items):
        spec = getattr(module, "__spec__", None)
        loader = getattr(spec, "loader", None)
        if isinstance(loader, zipimport.zipimporter) and loader.archive == archive:
            found[name] = module.__file__[len(archive) + 1:]
        elif name == "doiname" or name.startswith("doiname."):
            core[name] = module.__file__
        elif getattr(spec, "origin", None) == "frozen":
            frozen.add(name)
    return json.dumps({"archive": archive, "magic": importlib.util.MAGIC_NUMBER.hex(),
                       "modules": found, "core": core, "frozen": sorted(frozen)})
import sys
_boot_modules()`)));

if (list) {
  booted.warmed = warmed;
  if (fourth) {
    pyodide.FS.writeFile("/tmp/original.zip", readFileSync(fourth));
    booted.sourceHashes = JSON.parse(String(pyodide.runPython(`
def _source_hashes():
    import importlib.util, json, zipfile
    with zipfile.ZipFile(${JSON.stringify(booted.archive)}) as shipped, \\
            zipfile.ZipFile("/tmp/original.zip") as original:
        return json.dumps({n: importlib.util.source_hash(original.read(n[:-1])).hex()
                           for n in shipped.namelist() if n.endswith(".pyc")})
_source_hashes()`)));
  }
  if (fifth) {
    pyodide.FS.writeFile("/tmp/core.whl", readFileSync(fifth));
    booted.coreSourceHashes = JSON.parse(String(pyodide.runPython(`
def _core_hashes():
    import importlib.util, json, zipfile
    with zipfile.ZipFile("/tmp/core.whl") as wheel:
        return json.dumps({n: importlib.util.source_hash(wheel.read(n)).hex()
                           for n in wheel.namelist() if n.endswith(".py")})
_core_hashes()`)));
  }
  console.log(JSON.stringify(booted));
} else {
  const out = third;
  pyodide.globals.set("bytecode_source", bytecodeSource);
  pyodide.globals.set("boot_modules", pyodide.toPy(booted.modules));
  pyodide.globals.set("frozen_modules", pyodide.toPy(booted.frozen));
  pyodide.runPython(`
def _compile():
    import zipfile
    bytecode = {"__name__": "bytecode"}
    exec(compile(bytecode_source, "doiname_build/bytecode.py", "exec"), bytecode)
    archive = ${JSON.stringify(booted.archive)}
    frozen = set(frozen_modules)
    with zipfile.ZipFile(archive) as z:
        leave_out = frozenset(n for n in z.namelist() if n.endswith(".py") and (
            n[:-3].removesuffix("/__init__").replace("/", ".") in frozen))
    with open(archive, "rb") as f:
        data = bytecode["compiled_zip"](f.read(), dict(boot_modules), archive, leave_out)
    with open("/tmp/python_stdlib.zip", "wb") as f:
        f.write(data)
_compile()`);
  writeFileSync(resolve(out, "python_stdlib.zip"), pyodide.FS.readFile("/tmp/python_stdlib.zip"));
  writeFileSync(resolve(out, "modules.json"), JSON.stringify(booted.modules, null, 1) + "\n");
  if (record) {
    writeFileSync(resolve(out, "warm.bin"), record.bytes);
    writeFileSync(resolve(out, "warm.json"), JSON.stringify({ entry: record.entry }) + "\n");
  }
  // The core's files the boot imported, as named in site-packages (the first of the two
  // zips the site ships them in: runtime.py's split_core).
  const coreBoot = Object.values(booted.core).map((f) => String(f).slice(sitePackages.length + 1));
  writeFileSync(resolve(out, "core.json"), JSON.stringify(coreBoot.sort(), null, 1) + "\n");
  console.log(JSON.stringify({ modules: Object.keys(booted.modules).length }));
}
