"""Registry records: what a DOI names, read from its registration agency (002 foreword,
"DOI and Metadata").

| module | holds |
|---|---|
| ``work.py`` | :class:`Work`, :class:`Author`, :class:`Update` |
| ``markup.py`` | titles' markup reduced to text |
| ``values.py`` | bounded readers of JSON values (text, years, DOIs, update kinds) |
| ``csl.py``, ``datacite.py`` | the readers of CSL-JSON and Crossref, and of DataCite |
| ``requests.py`` | the one request per agency (:func:`registry_request`) |
| ``answers.py`` | reading an answer (:func:`read_registry_answer`) |
"""

from .answers import RegistryAnswer, RegistryOutcome, read_registry_answer
from .markup import plain_title
from .requests import CSL_ACCEPT, RegistryRequest, agency_key, open_link, registry_request
from .work import Author, RecordError, Update, UpdateKind, Work

__all__ = ["CSL_ACCEPT", "Author", "RecordError", "RegistryAnswer", "RegistryOutcome",
           "RegistryRequest", "Update", "UpdateKind", "Work", "agency_key", "open_link",
           "plain_title", "read_registry_answer", "registry_request"]
