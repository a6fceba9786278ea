"""The worked example game installed for the test suite: what ``pip install -e
examples/crazy_eights`` gives an environment (the package on the path, its distribution's
metadata with the ``playtest.games`` entry point), made in a temporary folder for this
test process and the servers and kernels it starts, so the suite checks a game from
outside the kit on every machine, without touching the environment."""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "crazy_eights"


def install_beside(site: Path) -> list[str]:
    """Write the example's distribution metadata into ``site``; returns the folders to
    put on the path (``site`` and the package's parent)."""
    project = re.search(r'^name = "(.+)"\nversion = "(.+)"', (EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"),
                        re.M)
    entry = re.search(r'^\[project\.entry-points\."playtest\.games"\]\n(.+)$',
                      (EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"), re.M)[1]
    entry = entry.replace(" ", "").replace('"', "")          # crazy_eights=crazy_eights:CrazyEights
    info = site / f"{project[1].replace('-', '_')}-{project[2]}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project[1]}\nVersion: {project[2]}\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[playtest.games]\n{entry}\n",
                                           encoding="utf-8")
    return [str(site), str(EXAMPLE)]


def install_for_this_process(site: Path) -> None:
    """The example installed for this process (``sys.path``) and its children
    (``PYTHONPATH``): call before the kit reads its entry points."""
    folders = install_beside(site)
    sys.path[:0] = folders
    os.environ["PYTHONPATH"] = os.pathsep.join([*folders, *filter(None, [os.environ.get("PYTHONPATH")])])
