"""A Dask worker preload (``--preload tests/dask_without_kit.py``) that makes the worker unable
to import the playtest kit, as on a machine where it is not installed (tests/test_lab_dask.py)."""
import importlib.abc
import sys


class _WithoutKit(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "playtest" or name.startswith("playtest."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, _WithoutKit())
for loaded in [name for name in sys.modules if name == "playtest" or name.startswith("playtest.")]:
    del sys.modules[loaded]
