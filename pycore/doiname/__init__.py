"""doiname: DOI names done right.

Reading (:func:`parse`), presenting (:func:`to_url`, :func:`to_urn_url`, :func:`to_uri`,
...), comparing (:func:`equivalent`) and checking (:func:`check`) DOI names, following
the specifications in the project's ``shared/specs`` (000-004).
"""

from .errors import DoiError
from .model import Doi, Finding
from .syntax import Reading, parse, read

__all__ = ["Doi", "DoiError", "Finding", "Reading", "parse", "read"]
__version__ = "0.1.0"
