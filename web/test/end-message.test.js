// @ts-check
// What Batch says when a batch ends (src/views/batch/status.js): counts with their nouns.
import assert from "node:assert/strict";
import { test } from "node:test";
import { endMessage } from "../src/views/batch/status.js";

/**
 * @param {Partial<import("../src/engine/types.gen.js").BatchSummary>} counts
 * @returns {import("../src/engine/types.gen.js").BatchSummary}
 */
function summary(counts) {
  return /** @type {import("../src/engine/types.gen.js").BatchSummary} */ ({
    lines: 0,
    input_lines: 0,
    records: 0,
    dois: 0,
    unique: 0,
    duplicates: 0,
    errors: 0,
    no_doi: 0,
    ...counts,
  });
}

test("one of a thing is said in the singular, any other count in the plural", () => {
  const one = summary({ lines: 1, input_lines: 1, records: 1, dois: 1, unique: 1 });
  assert.equal(
    endMessage(one, false, "the text"),
    "Done: 1 line, 1 DOI name (1 unique, 0 duplicates, 0 unreadable), 0 lines without a DOI.",
  );
  const grouped = summary({ lines: 3, input_lines: 52, records: 3, dois: 2, unique: 2, no_doi: 1 });
  assert.equal(
    endMessage(grouped, false, "the text"),
    "Done: 52 lines in 3 records, 2 DOI names (2 unique, 0 duplicates, 0 unreadable), 1 record without a DOI.",
  );
  assert.equal(
    endMessage(summary({ lines: 1 }), true, "refs.txt"),
    "Cancelled after 1 line of refs.txt. The table and the downloads have the rows of those lines.",
  );
});
