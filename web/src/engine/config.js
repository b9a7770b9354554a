// @ts-check
/**
 * What the worker needs to boot (`WorkerConfig`), and how a page of the built site makes
 * it from its `build-info.js` (`siteConfig`).
 * @module engine/config
 */

/**
 * What the worker needs to boot. URLs are absolute.
 *
 * `snapshotURL` (the site only) is the build-time memory snapshot's `snapshot.json`, with
 * the snapshot (`snapshotDataURL`, gzip) and the files it needs (`snapshotFilesURL`), each
 * fetched with its integrity value when the config has one (`snapshot*Integrity`); the
 * worker uses it when that JSON matches `pyodideVersion`, `wasmSha256` and `coreIntegrity`,
 * and boots the normal way otherwise (and always when there is no `snapshotURL`).
 * @typedef {{
 *   pyodideModuleURL: string,
 *   indexURL: string,
 *   packageBaseUrl?: string,
 *   lockFileURL?: string,
 *   lockFileContents?: string,
 *   coreWheelURL: string,
 *   coreWheelName: string,
 *   coreIntegrity?: string,
 *   coreWheelBytes?: ArrayBuffer,
 *   pyodideVersion?: string,
 *   wasmSha256?: string,
 *   snapshotURL?: string,
 *   snapshotDataURL?: string,
 *   snapshotFilesURL?: string,
 *   snapshotDataIntegrity?: string,
 *   snapshotFilesIntegrity?: string,
 * }} WorkerConfig
 */

/**
 * What build.py writes into `build-info.js` about a build.
 * @typedef {{indexURL: string, coreWheel: string, coreWheelName: string, coreIntegrity?: string,
 *   pyodideVersion?: string, wasmSha256?: string,
 *   snapshot?: {manifest: string, data: string, files: string, dataIntegrity?: string,
 *     filesIntegrity?: string} | null}} BuildInfo
 */

/**
 * The worker config of a site built by build.py, from its `build-info.js`.
 * @param {BuildInfo} build
 * @param {string | URL} base the site's base URL
 * @returns {WorkerConfig}
 */
export function siteConfig(build, base) {
  const indexURL = new URL(build.indexURL, base).href;
  return {
    pyodideModuleURL: new URL("pyodide.mjs", indexURL).href,
    indexURL,
    packageBaseUrl: indexURL,
    coreWheelURL: new URL(build.coreWheel, base).href,
    coreWheelName: build.coreWheelName,
    coreIntegrity: build.coreIntegrity,
    ...(build.snapshot
      ? {
          pyodideVersion: build.pyodideVersion,
          wasmSha256: build.wasmSha256,
          snapshotURL: new URL(build.snapshot.manifest, base).href,
          snapshotDataURL: new URL(build.snapshot.data, base).href,
          snapshotFilesURL: new URL(build.snapshot.files, base).href,
          snapshotDataIntegrity: build.snapshot.dataIntegrity,
          snapshotFilesIntegrity: build.snapshot.filesIntegrity,
        }
      : {}),
  };
}
