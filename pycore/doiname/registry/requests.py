"""The one request that reads a DOI's record from its registration agency, by agency
(002 foreword, "DOI and Metadata"; the agency as doi.org's Which RA names it).

Python decides what is asked and how; the page (``fetch``) and the CLI (``urllib``) only
carry the bytes. Each agency gets the one way a browser can read its records (the README,
"Registry metadata", gives the facts and their sources):

* ``Crossref``: its REST API, ``https://api.crossref.org/works/{doi}``, which sends CORS
  headers; with the caller's ``mailto`` as a query parameter (Crossref's "polite" pool:
  a browser cannot set ``User-Agent``), never an invented one. Its limits are facts of
  :mod:`doiname.limits` (``CROSSREF_*``).
* ``DataCite``: its REST API, ``https://api.datacite.org/dois/{doi}`` (CORS headers).
* ``mEDRA`` and ``JaLC``: doi.org content negotiation (``Accept:
  application/vnd.citationstyles.csl+json``), which redirects to the agency's service
  (its CORS undocumented: a refusal reads as ``network``, said in words).
* every other agency (KISTI, CNKI, ISTIC, Airiti, OP, EIDR, ...): no way a browser may
  use is known; the request says so (``readable`` false) with the link a person opens
  instead. The CLI, which CORS does not bind, still tries content negotiation
  (:func:`registry_request` with ``browser=False``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..encoding import encode_component
from ..limits import (
    CROSSREF_CONCURRENT_POLITE,
    CROSSREF_CONCURRENT_PUBLIC,
    CROSSREF_PER_SECOND_POLITE,
    CROSSREF_PER_SECOND_PUBLIC,
    REGISTRY_DEADLINE_MS,
)
from ..model import Doi

__all__ = ["CSL_ACCEPT", "REGISTRY_HOSTS", "RecordForm", "RegistryRequest", "agency_key",
           "open_link", "registry_request"]

RecordForm = Literal["crossref", "datacite", "csl", "none"]

#: The Accept header of doi.org content negotiation for CSL-JSON (Crossref's and
#: DataCite's documentation of content negotiation).
CSL_ACCEPT = "application/vnd.citationstyles.csl+json"

#: Agencies by their Which RA name folded to lower case.
_AGENCIES = {"crossref": "Crossref", "datacite": "DataCite", "medra": "mEDRA",
             "jalc": "JaLC", "kisti": "KISTI", "cnki": "CNKI", "istic": "ISTIC",
             "airiti": "Airiti", "op": "OP", "eidr": "EIDR", "public": "Public"}
#: Agencies whose records a browser asks of doi.org's content negotiation (the README,
#: "Registry metadata", says why).
_NEGOTIATED = frozenset({"mEDRA", "JaLC"})
#: Every host a browser's registry request reaches, redirects included: what the site's
#: Content-Security-Policy ``connect-src`` must allow (doi.org for Which RA and content
#: negotiation; the content negotiation targets of mEDRA and JaLC).
REGISTRY_HOSTS = ("https://doi.org", "https://api.crossref.org", "https://api.datacite.org",
                  "https://data.medra.org", "https://japanlinkcenter.org")


@dataclass(frozen=True, slots=True)
class RegistryRequest:
    """What to ask for a DOI's record (002 foreword, "DOI and Metadata").

    ``url`` and ``headers`` are the request (``GET``, no credentials), ``""`` when
    ``readable`` is false (no way a browser may read this agency's records is known;
    ``message`` says so). ``form`` is what the answer holds (``crossref``, ``datacite``,
    ``csl`` or ``none``), ``open_url`` the link a person opens instead (the DOI at
    doi.org). ``limit_group`` names the requests that share a rate limit (``crossref``),
    with ``per_second`` and ``concurrent`` the limits to keep (0: none published);
    ``deadline_ms`` is when to give up.
    """

    url: str
    headers: dict[str, str]
    agency: str
    open_url: str
    form: RecordForm
    readable: bool
    message: str = ""
    limit_group: str = ""
    per_second: int = 0
    concurrent: int = 0
    deadline_ms: int = REGISTRY_DEADLINE_MS


def agency_key(agency: str) -> str:
    """An agency's name as Which RA writes it (``crossref`` -> ``Crossref``), or the
    name given, trimmed, for one not known here."""
    name = agency.strip()
    return _AGENCIES.get(name.lower(), name)


def _path(doi: Doi) -> str:
    return encode_component(doi.prefix + "/" + doi.suffix, "uri")


def open_link(doi: Doi) -> str:
    """The link a person opens to see the work (doi.org), for any agency."""
    return "https://doi.org/" + _path(doi)


def registry_request(doi: Doi, agency: str, *, mailto: str | None = None,
                     browser: bool = True) -> RegistryRequest:
    """The request that reads ``doi``'s record from ``agency`` (the Which RA name; 002
    foreword, "DOI and Metadata").

    ``mailto`` is the address the host page or the person gave, sent to Crossref as its
    API asks; ``None`` sends none (Crossref's public pool, with its lower limits). With
    ``browser=False`` (the CLI) an agency browsers cannot read is asked through doi.org
    content negotiation.
    """
    name = agency_key(agency)
    opened = open_link(doi)
    if name == "Crossref":
        address = (mailto or "").strip()
        query = "?mailto=" + encode_component(address, "query") if address else ""
        polite = bool(address)
        return RegistryRequest(
            "https://api.crossref.org/works/" + _path(doi) + query,
            {"Accept": "application/json"}, name, opened, "crossref", True,
            limit_group="crossref",
            per_second=CROSSREF_PER_SECOND_POLITE if polite else CROSSREF_PER_SECOND_PUBLIC,
            concurrent=CROSSREF_CONCURRENT_POLITE if polite else CROSSREF_CONCURRENT_PUBLIC)
    if name == "DataCite":
        return RegistryRequest("https://api.datacite.org/dois/" + _path(doi),
                               {"Accept": "application/vnd.api+json"}, name, opened,
                               "datacite", True)
    if name in _NEGOTIATED or (not browser and name):
        return RegistryRequest(opened, {"Accept": CSL_ACCEPT}, name, opened, "csl", True)
    who = name or "its registration agency"
    return RegistryRequest("", {}, name, opened, "none", False,
                           f"The registration agency ({who}) does not let browsers read "
                           "its records; open the DOI's page instead." if name else
                           "No registration agency is known for this DOI, so its record "
                           "cannot be read; open the DOI's page instead.")
