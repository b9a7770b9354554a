// @ts-check
/** The page's entry: starts the page (src/page.js) with the client doiname-api.js made. */
import { startPage } from "./src/page.js";

startPage(/** @type {any} */ (window).doiname);
