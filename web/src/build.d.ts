// What build.py knows about a build (the core wheel, the runtime, the memory snapshot),
// put into the bundles of the page and the widget's frame by esbuild (`define`).
declare const DOINAME_BUILD: import("./engine/config.js").BuildInfo;
// The engine worker's bundled script (web/src/worker/main.js), in the page's and the
// widget frame's bundles: they run it from a `blob:` URL (engine/supervisor.js).
declare const DOINAME_WORKER: string;
// The service worker's list of this build's files, each with its integrity value (sw.js).
declare const DOINAME_PRECACHE: { cache: string; list: string; files: [string, string][]; policies: Record<string, string> };
