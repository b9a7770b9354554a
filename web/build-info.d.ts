// The types of build-info.js, which build.py writes into each build.
export const BUILD: import("./src/engine/config.js").BuildInfo;
