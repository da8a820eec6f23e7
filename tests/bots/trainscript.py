"""``scripts/train_eval.py`` loaded as a module, for the evaluation's tests.

Helpers only (no tests here).
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


@cache
def script() -> ModuleType:
    """The training script's module (loaded once)."""
    spec = importlib.util.spec_from_file_location("train_eval", ROOT / "scripts/train_eval.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
