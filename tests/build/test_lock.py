"""The dev tools are installed from a lock file that pins every one of them, with hashes,
at a version pyproject.toml allows (``python3 build.py lock`` writes it)."""

from __future__ import annotations

import re
import tomllib

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from doiname_build.lock import with_markers
from doiname_build.paths import DEV_LOCK, ROOT


def pins() -> dict[str, str]:
    text = DEV_LOCK.read_text(encoding="utf-8")
    return {canonicalize_name(m.group(1)): m.group(2)
            for m in re.finditer(r"(?m)^([A-Za-z0-9_.-]+)==([^ ;\\\n]+)", text)}


def test_every_dev_requirement_is_pinned_within_its_range() -> None:
    with (ROOT / "pyproject.toml").open("rb") as f:
        project = tomllib.load(f)
    wanted = [Requirement(r) for r in project["project"]["optional-dependencies"]["dev"]]
    wanted += [Requirement(r) for r in project["build-system"]["requires"]]
    pinned = pins()
    for req in wanted:
        version = pinned.get(canonicalize_name(req.name))
        assert version is not None, f"{req.name} is not in {DEV_LOCK.name}: python3 build.py lock"
        assert req.specifier.contains(version, prereleases=True), (req, version)


def test_every_pin_carries_hashes() -> None:
    text = DEV_LOCK.read_text(encoding="utf-8")
    blocks = re.split(r"(?m)^(?=[A-Za-z0-9_.-]+==)", text)[1:]
    assert len(blocks) == len(pins()) > 10
    for block in blocks:
        assert re.search(r"--hash=sha256:[0-9a-f]{64}", block), block.splitlines()[0]


def test_markers_are_put_back() -> None:
    text = "atheris==3.0.0 \\\n    --hash=sha256:00\nother==1 \\\n"
    out = with_markers(text, ["atheris>=2.3; platform_machine == 'x86_64'", "other>=1"])
    assert out.splitlines()[0] == "atheris==3.0.0 ; platform_machine == 'x86_64' \\"
    assert "other==1 \\" in out
