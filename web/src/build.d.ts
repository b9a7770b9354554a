// What build.py knows about a build (the core wheel, the runtime, the memory snapshot),
// put into the bundles of the page and the widget's frame by esbuild (`define`).
declare const DOINAME_BUILD: import("./engine/config.js").BuildInfo;
// The service worker's list of this build's files, each with its integrity value (sw.js).
declare const DOINAME_PRECACHE: { cache: string; list: string; files: [string, string][]; policies: Record<string, string> };
