"""Reading the answers of the DOI resolver: handle records, Which RA, shortDOI aliases.

* Handle records: ``https://doi.org/api/handles/<ssp>`` answers a JSON object (003 ch. 4)
  with ``responseCode`` 1 (success, HTTP 200), 2 (server error, HTTP 500), 100 (not
  found, HTTP 404) or 200 (no values, HTTP 200), ``handle`` and ``values``. Each value
  (RFC 3651 §3.1) has ``index``, ``type``, ``data`` (``format`` one of ``string``,
  ``base64``, ``hex``, ``admin``, ``vlist``, ``site``, ``key``; specs README), ``ttl``
  (seconds, or an absolute date) and ``timestamp``: :mod:`.handle`, :mod:`.values`,
  :mod:`.locations`.
* Which RA: ``https://doi.org/ra/A,B`` answers a JSON array of ``{"DOI", "RA"}`` or
  ``{"DOI", "status"}`` objects (specs README): :mod:`.which_ra`.
* shortDOIs resolve through the ``HS_ALIAS`` value of their handle (specs README):
  :func:`alias_target`.

Everything here is data from the network: untrusted, read within the bounds of
:mod:`doiname.limits` (:mod:`.body`, :mod:`.text`). Nothing raises on any input: every
outcome, including a network failure, is a value with a plain message
(:mod:`.outcome`). Only ``http``/``https`` URLs with a host are marked linkable
(:mod:`.links`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..later import import_later

if TYPE_CHECKING:
    from .handle import alias_target, read_handle_response
    from .links import is_linkable_url
    from .model import (
        AdminInfo,
        HandleRecord,
        HandleValue,
        Location,
        RaAnswer,
        Reference,
        WhichRaResult,
        transport_outcome,
    )
    from .outcome import Outcome, worth_retrying
    from .values import ADMIN_PERMISSIONS
    from .which_ra import read_which_ra_response

#: The names of this package, by the module that defines them: imported on first use
#: (:mod:`doiname.later`), so that a link check (:func:`is_linkable_url`, which the first
#: answer makes) loads neither the handle record's readers nor their XML and date parsers.
_NAMES: dict[str, tuple[str, ...]] = {
    "handle": ("alias_target", "read_handle_response"),
    "links": ("is_linkable_url",),
    "model": ("AdminInfo", "HandleRecord", "HandleValue", "Location", "RaAnswer", "Reference",
              "WhichRaResult", "transport_outcome"),
    "outcome": ("Outcome", "worth_retrying"),
    "values": ("ADMIN_PERMISSIONS",),
    "which_ra": ("read_which_ra_response",),
}
import_later(__name__, _NAMES)

__all__ = [
    "ADMIN_PERMISSIONS",
    "AdminInfo",
    "HandleRecord",
    "HandleValue",
    "Location",
    "Outcome",
    "RaAnswer",
    "Reference",
    "WhichRaResult",
    "alias_target",
    "is_linkable_url",
    "read_handle_response",
    "read_which_ra_response",
    "transport_outcome",
    "worth_retrying",
]
