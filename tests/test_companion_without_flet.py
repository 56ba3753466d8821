"""companion/ imports no Flet: the rules, rooms and logs run (and are tested, replayed, imported
from the command line) without the user interface. Flet belongs to views/ and main.py.

Two checks, as the import cycle test reads imports (tests/test_import_cycles.py): at run time,
every companion module imported in a fresh interpreter leaves no Flet module loaded (so no
library companion uses brings it in either); and in the source, no import statement of
companion/ names Flet, wherever it is written (a late import inside a function, or one under
`if TYPE_CHECKING:`, is not run by the first check).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"


def is_flet(module: str) -> bool:
    """flet, flet.*, and the flet_* packages (flet_desktop, flet_web, flet_audio, ...)."""
    top = module.split(".")[0]
    return top == "flet" or top.startswith("flet_")


def companion_modules() -> list[str]:
    """Every module of the companion package, by its dotted name."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_the_module_list_is_read() -> None:
    modules = companion_modules()
    assert {"companion", "companion.room", "companion.history", "companion.games.vabanque"} <= set(modules)


def test_importing_every_companion_module_loads_no_flet() -> None:
    modules = companion_modules()
    program = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert "companion.room" in loaded  # the modules were imported
    assert not [m for m in loaded if is_flet(m)], f"importing companion loads Flet: {[m for m in loaded if is_flet(m)]}"


def flet_imports(path: Path) -> list[str]:
    """`file:line module` for each import statement of this file that names Flet."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        found += [f"{path.name}:{node.lineno} {name}" for name in names if is_flet(name)]
    return found


def test_the_import_reader_finds_flet(tmp_path: Path) -> None:
    """The source check sees each kind of import (else it could never fail)."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from typing import TYPE_CHECKING\n"
        "import flet as ft\n"
        "from flet.controls import Text\n"
        "if TYPE_CHECKING:\n    import flet_web\n"
        "def late():\n    from flet_audio import Audio\n"
        "import fletcher, json\n"
        "from .flet import x\n"
    )
    assert flet_imports(probe) == ["probe.py:2 flet", "probe.py:3 flet.controls", "probe.py:5 flet_web", "probe.py:7 flet_audio"]


def test_no_companion_source_imports_flet() -> None:
    found = [f"{path.parent.relative_to(ROOT)}/{hit}" for path in sorted(PACKAGE.rglob("*.py")) for hit in flet_imports(path)]
    assert not found, "companion/ imports Flet: " + ", ".join(found)
