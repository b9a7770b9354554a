"""doiname: DOI names done right.

Reading (:func:`parse`), presenting (:func:`to_url`, :func:`to_urn_url`, :func:`to_uri`,
...), comparing (:func:`equivalent`) and checking (:func:`check`) DOI names, following
the specifications in the project's ``shared/specs`` (000-004); reading what a name
identifies from its registry (:class:`Work`, :func:`registry_request`,
:func:`read_registry_answer`) and checking it against a reference (:func:`verify`).

The names are imported on first use (:mod:`doiname.later`): ``import doiname`` and any
of its modules load only what they need.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .later import import_later

if TYPE_CHECKING:
    from .canonical import canonical_uri_2003
    from .codepoints import CodePoint, describe_code_points
    from .comparison import Comparison, compare
    from .encoding import Change
    from .equivalence import Explanation, equivalence_key, equivalent, explain_equivalence
    from .errors import DoiError
    from .extract import Match, extract
    from .findings import check
    from .inspection import Candidate, Inspection, inspect
    from .linkify import LinkTarget, link_targets
    from .model import Doi, Finding
    from .presentation import (
        explain_url,
        short_doi_api_url,
        to_handles_api_url,
        to_html_link,
        to_markdown_link,
        to_proxy_url,
        to_uri,
        to_url,
        to_urn_url,
        to_which_ra_url,
    )
    from .registry import (
        Author,
        RegistryAnswer,
        RegistryRequest,
        Update,
        Work,
        read_registry_answer,
        registry_request,
    )
    from .resolver import (
        HandleRecord,
        HandleValue,
        WhichRaResult,
        alias_target,
        is_linkable_url,
        read_handle_response,
        read_which_ra_response,
        transport_outcome,
    )
    from .syntax import Reading, parse, read
    from .verify import Evidence, Notice, RowCheck, Verification, check_row, row_reference, verify

#: The public names, by the module of the package that defines them.
_PUBLIC: dict[str, tuple[str, ...]] = {
    "canonical": ("canonical_uri_2003",),
    "codepoints": ("CodePoint", "describe_code_points"),
    "comparison": ("Comparison", "compare"),
    "encoding": ("Change",),
    "equivalence": ("Explanation", "equivalence_key", "equivalent", "explain_equivalence"),
    "errors": ("DoiError",),
    "extract": ("Match", "extract"),
    "findings": ("check",),
    "inspection": ("Candidate", "Inspection", "inspect"),
    "linkify": ("LinkTarget", "link_targets"),
    "model": ("Doi", "Finding"),
    "presentation": (
        "explain_url", "short_doi_api_url", "to_handles_api_url", "to_html_link",
        "to_markdown_link", "to_proxy_url", "to_uri", "to_url", "to_urn_url",
        "to_which_ra_url",
    ),
    "registry": (
        "Author", "RegistryAnswer", "RegistryRequest", "Update", "Work",
        "read_registry_answer", "registry_request",
    ),
    "resolver": (
        "HandleRecord", "HandleValue", "WhichRaResult", "alias_target", "is_linkable_url",
        "read_handle_response", "read_which_ra_response", "transport_outcome",
    ),
    "syntax": ("Reading", "parse", "read"),
    "verify": (
        "Evidence", "Notice", "RowCheck", "Verification", "check_row", "row_reference",
        "verify",
    ),
}
import_later(__name__, _PUBLIC)

__all__ = [
    "Author",
    "Candidate",
    "Change",
    "CodePoint",
    "Comparison",
    "Doi",
    "DoiError",
    "Evidence",
    "Explanation",
    "Finding",
    "HandleRecord",
    "HandleValue",
    "Inspection",
    "LinkTarget",
    "Match",
    "Notice",
    "Reading",
    "RegistryAnswer",
    "RegistryRequest",
    "RowCheck",
    "Update",
    "Verification",
    "WhichRaResult",
    "Work",
    "alias_target",
    "canonical_uri_2003",
    "check",
    "check_row",
    "compare",
    "describe_code_points",
    "equivalence_key",
    "equivalent",
    "explain_equivalence",
    "explain_url",
    "extract",
    "inspect",
    "is_linkable_url",
    "link_targets",
    "parse",
    "read",
    "read_handle_response",
    "read_registry_answer",
    "read_which_ra_response",
    "registry_request",
    "row_reference",
    "short_doi_api_url",
    "to_handles_api_url",
    "to_html_link",
    "to_markdown_link",
    "to_proxy_url",
    "to_uri",
    "to_url",
    "to_urn_url",
    "to_which_ra_url",
    "transport_outcome",
    "verify",
]
__version__ = "0.1.0"
