"""What git leaves out of a checkout: the leftovers of installing and building sixtui
(``pip install .``, a wheel or an sdist) never show as files to add."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BUILD_LEFTOVERS = ["build/lib/sixtui/__init__.py", "dist/sixtui-0.1.0.tar.gz", "sixtui.egg-info"]


@pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout"
)
@pytest.mark.parametrize("path", BUILD_LEFTOVERS)
def test_build_leftovers_are_ignored(path):
    checked = subprocess.run(
        ["git", "check-ignore", "--no-index", "--quiet", path], cwd=ROOT, check=False
    )
    assert checked.returncode == 0, f"git would offer {path} to be added"
