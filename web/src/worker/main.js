// @ts-check
/** The site's module worker (bundled as worker.js): the DOI engine (engine.js) on this scope. */
import { serveEngine } from "./engine.js";

serveEngine(globalThis);
