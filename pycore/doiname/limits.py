"""Every size bound of the package, in one place (read by the web page and the README),
and the pace of its work: how much one batch step reads, how many lookups run at once.

A bound says how much of an input or an answer is read, kept or drawn; what lies beyond
it is never silently dropped: the function that applies a bound says so in its result.
"""

from __future__ import annotations

__all__ = [
           "BATCH_CHECK_MAX_RECORDS",
           "BATCH_MAX_FEED_CHARS",
           "BATCH_MAX_LINE_CHARS",
           "BATCH_MAX_NAMES",
           "BATCH_MAX_PENDING_CHARS",
           "BATCH_MAX_ROWS_KEPT", "BATCH_PASTE_STREAM_CHARS", "BATCH_STEP_LINES",
           "BATCH_STEP_MAX_CHARS", "BATCH_STEP_MAX_ROWS", "BATCH_STEP_MS",
           "CROSSREF_CONCURRENT_POLITE", "CROSSREF_CONCURRENT_PUBLIC",
           "CROSSREF_PER_SECOND_POLITE", "CROSSREF_PER_SECOND_PUBLIC",
           "DRAW_MAX_VALUES", "DRAW_MAX_VALUE_CHARS", "DRAW_PAGE_VALUES",
           "EXPORT_CHUNK_CHARS",
           "INSPECT_MAX_CHARS",
           "LOOKUPS_AT_ONCE",
           "MAX_BODY",
           "MAX_FINDINGS",
           "MAX_LABEL",
           "MAX_TEXT",
           "MAX_URL",
           "MAX_VALUES",
           "MAX_XML",
           "PAGE_STEP_MS",
           "PIECE_CHARS",
           "RECORD_MAX_CHARS",
           "RECORD_MAX_LINES",
           "REGISTRY_DEADLINE_MS", "REGISTRY_MAX_BODY", "REGISTRY_MAX_DEPTH",
           "REGISTRY_MAX_JSON_VALUES", "REGISTRY_RETRY_AFTER_MAX_S", "SETTLE_MAX_CANDIDATES",
           "TEXT_SNIFF_BYTES",
           "VERIFY_MAX_REFERENCE_CHARS", "WORK_MAX_AUTHORS", "WORK_MAX_TITLE_CHARS",
           "WORK_MAX_UPDATES",
]

#: Characters of text one Inspect reading takes (the page's input box, the widget's box,
#: :func:`doiname.inspect`). A DOI name is rarely over 300 characters and a pasted
#: reference a few thousand; longer text is refused with a message pointing to Batch.
INSPECT_MAX_CHARS = 8000

#: Findings :func:`doiname.check` returns for one name; the rest are counted, by code, in
#: one last finding (``more-findings``).
MAX_FINDINGS = 50

# Answers from doi.org (doiname.resolver): untrusted, read within these bounds.

#: Bytes (or characters) of one answer that are read; a larger one is refused unread
#: (outcome ``too-large``).
MAX_BODY = 10 * 1024 * 1024
#: Values, locations, vlist members and servers kept from one answer.
MAX_VALUES = 1000
#: Characters of one decoded value kept for display (the rest is counted).
MAX_TEXT = 100_000
#: Characters kept of a type, format, name or attribute.
MAX_LABEL = 500
#: Characters of a ``10320/loc`` value that are parsed.
MAX_XML = 1_000_000
#: Characters: a longer text never becomes a link.
MAX_URL = 8000

# Batch (doiname.batch): lists of any size, read as a stream in bounded pieces.

#: Characters of one line that are read. A longer line (a minified JSON file, a whole
#: database dump on one line) is cut: the names in its first ``BATCH_MAX_LINE_CHARS``
#: characters are found as usual, then one ``error`` row (finding ``line-too-long``) says
#: how long the line was and that the rest was not read. 100,000 characters hold about
#: 3,000 names; a reference is rarely over 2,000.
BATCH_MAX_LINE_CHARS = 100_000
#: Lines one record (a BibTeX entry, a RIS record, a JSON object, a reference wrapped over
#: lines) holds at most; a record that does not close by then gives its lines back one by
#: one (doiname.records). A MEDLINE, Refer or Web of Science record, which a blank line or
#: a line of its own ends, is bounded by its characters alone: a paper's hundreds of
#: authors take three lines each there, its cited references one each.
RECORD_MAX_LINES = 300
#: Characters one record holds at most (the same).
RECORD_MAX_CHARS = 100_000
#: Characters of one piece given to ``BatchJob.feed`` (split a larger text).
BATCH_MAX_FEED_CHARS = 4 * 1024 * 1024
#: Characters of input a streaming ``BatchJob`` holds unprocessed: ``feed`` refuses a
#: piece that would pass it (back-pressure: step, then feed again).
BATCH_MAX_PENDING_CHARS = 8 * 1024 * 1024
#: Rows a ``BatchJob`` keeps for its table and exports (about 100 bytes each, plus the
#: lines they come from). Past it, rows are still made and counted, but not kept and
#: not handed over by ``step``: the step and the summary say how many were kept.
BATCH_MAX_ROWS_KEPT = 1_000_000
#: Lines one ``BatchJob.step`` reads at most unless told otherwise (the CLI's, the
#: worker's ``batch_step`` and the page's steps).
BATCH_STEP_LINES = 5_000
#: Milliseconds one ``BatchJob.step`` reads lines at most unless told otherwise (a stream
#: read through the bridge without a ``budget_ms``).
BATCH_STEP_MS = 50
#: Rows one ``BatchJob.step`` makes at most (it stops after the record that passes it):
#: the rows it hands over as JSON data stay near 10 MB whatever the lines hold.
BATCH_STEP_MAX_ROWS = 5_000
#: Structured records (BibTeX, RIS, MEDLINE, Refer, WoS, JSON) a batch keeps the text of, for
#: "Check all" to compare their fields with the registry's record (doiname.batch.checks);
#: rows of later records are compared with their line. A BibTeX entry is about 500
#: characters.
BATCH_CHECK_MAX_RECORDS = 20_000
#: Characters of input one ``BatchJob.step`` reads at most (at least one line): a step of
#: long lines ends as soon as one of a few short lines does, so a call waiting in the
#: worker (an Inspect asked meanwhile) is answered between two steps.
BATCH_STEP_MAX_CHARS = 200_000
#: Distinct names a batch remembers to mark duplicates exactly (about 100-150 bytes each).
#: A name first seen after that is still compared with every name remembered, but is not
#: remembered itself; the summary counts those names (``names_not_kept``).
BATCH_MAX_NAMES = 2_000_000
#: Bytes at the start of a file that say how it is read (doiname.batch.text_encoding): its
#: byte-order mark (UTF-8, UTF-16), or a NUL byte among them (not text, as git decides).
TEXT_SNIFF_BYTES = 8000
#: Characters of one piece of an export (``BatchJob.export_chunks``): an export is written
#: in pieces of about this size, never as one string.
EXPORT_CHUNK_CHARS = 1024 * 1024


# Registry records (doiname.registry): answers of Crossref, DataCite and doi.org's content
# negotiation, untrusted, read within these bounds (002 foreword, "DOI and Metadata").

#: Bytes (or characters) of one registry answer that are read; a larger one is refused
#: unread (outcome ``too-large``). A Crossref work with 3,000 authors is about 2 MB.
REGISTRY_MAX_BODY = 10 * 1024 * 1024
#: JSON nesting a registry answer may have (a Crossref work is 6 deep); a deeper one is
#: refused before it is parsed (``bad-answer``).
REGISTRY_MAX_DEPTH = 64
#: JSON values (counted by their separators, before parsing) one answer may hold; more is
#: refused unparsed (``too-large``): 10 MB of ``[0,0,0,...]`` would be 5 million objects.
REGISTRY_MAX_JSON_VALUES = 500_000
#: Milliseconds one registry request may take, from asking to the last byte.
REGISTRY_DEADLINE_MS = 15_000
#: Seconds of a ``Retry-After`` that are honoured; a longer wait is reported, not waited.
REGISTRY_RETRY_AFTER_MAX_S = 600
#: Authors a :class:`~doiname.registry.Work` keeps (in order; the rest are counted).
WORK_MAX_AUTHORS = 500
#: Updates (retractions, corrections, ...) a work keeps.
WORK_MAX_UPDATES = 100
#: Characters of a title, subtitle or container title kept.
WORK_MAX_TITLE_CHARS = 2000
#: Characters of a reference that :func:`doiname.verify` reads (a reference is rarely
#: over 2,000); the rest is not compared, and the verification says so.
VERIFY_MAX_REFERENCE_CHARS = 8000

# Crossref's published limits for its REST API (since December 2025), the "polite" pool
# being requests that carry a ``mailto``. Facts of Crossref, obeyed by the page and the CLI.

#: Single-record requests a second with a ``mailto``.
CROSSREF_PER_SECOND_POLITE = 10
#: Requests at once with a ``mailto``.
CROSSREF_CONCURRENT_POLITE = 3
#: Single-record requests a second without a ``mailto``.
CROSSREF_PER_SECOND_PUBLIC = 5
#: Requests at once without a ``mailto``.
CROSSREF_CONCURRENT_PUBLIC = 1


# The web page (web/src: read through web/src/engine/limits.gen.js, written from here).

#: Characters of one piece of a file or a paste handed to the worker's batch (a file is
#: read as a stream of pieces of about this size; a piece never splits a surrogate pair).
PIECE_CHARS = 1024 * 1024
#: Milliseconds each batch step of the page reads lines before the worker takes other
#: requests. Writing the step's rows comes after it, so a step takes about twice as long:
#: the page hears of progress and has a Cancel answered within 100 ms (bench/batch.py).
PAGE_STEP_MS = 30
#: Lookups at doi.org the page has in flight at once (Batch's "Resolve all"; each retried
#: while Python's reading of the answer says it may help).
LOOKUPS_AT_ONCE = 4
#: Characters of a paste into Batch's box above which the text is not put into the box
#: (a text area of 100,000 lines blocks the page for seconds) but read as a stream of
#: pieces, the box saying what was pasted.
BATCH_PASTE_STREAM_CHARS = 200_000
#: Values of a handle record drawn at first; the rest behind "Show all".
DRAW_MAX_VALUES = 20
#: Values drawn on each page once "Show all" was asked (a page replaces the one shown).
DRAW_PAGE_VALUES = 25
#: Characters of one value drawn at first; the rest behind its own "Show all".
DRAW_MAX_VALUE_CHARS = 1000
#: Readings of one place in a pasted text (a final ".", a name cut by a space) that
#: Resolve looks up to settle which one is registered and fits the reference around it
#: (doiname.settle): the selected reading and the others of the same place.
SETTLE_MAX_CANDIDATES = 4
