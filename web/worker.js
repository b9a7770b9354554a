// @ts-check
/** The worker's entry (a module worker): src/worker/main.js. */
import "./src/worker/main.js";
