"""scripts/setup.sh: options are checked before anything is installed."""

import shutil
import subprocess
from pathlib import Path

SETUP = Path(__file__).resolve().parents[2] / "scripts" / "setup.sh"


def test_an_unknown_option_stops_the_set_up_before_it_creates_anything(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    shutil.copy(SETUP, tmp_path / "scripts" / "setup.sh")
    completed = subprocess.run(["bash", str(tmp_path / "scripts" / "setup.sh"), "--fast"],
                               capture_output=True, text=True, timeout=60)
    assert completed.returncode == 2
    assert "unknown option: --fast" in completed.stderr
    assert "--native-kernels" in completed.stderr
    assert not (tmp_path / ".venv").exists()
