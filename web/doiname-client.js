// @ts-check
/** The client for packagings that make their own (the single file): src/engine/client.js. */
export { createDoiname } from "./src/engine/client.js";
export { siteConfig } from "./src/engine/config.js";
