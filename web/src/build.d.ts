// What build.py knows about a build (the core wheel, the runtime, the memory snapshot),
// put into the bundles of the page and the widget's frame by esbuild (`define`).
declare const DOINAME_BUILD: import("./engine/config.js").BuildInfo;
