"""One list of printing packages (deploy/print-packages.txt) for development, CI and the
image: scripts/lib.sh installs it for scripts/dev, scripts/test and .ci/run, and the
Dockerfile installs the same lines, so a name that prints on a laptop prints in production."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES_FILE = ROOT / "deploy" / "print-packages.txt"
# The scripts print.css's font stack covers, and the Debian package each one's font is in.
FONT_PACKAGES = {
    "fonts-dejavu-core",  # Latin, Greek, Cyrillic
    "fonts-noto-core",  # Arabic, Hebrew, Thai, Devanagari
    "fonts-noto-cjk",  # Japanese, Chinese, Korean
    "fonts-noto-color-emoji",  # emoji
}


def listed_packages() -> list[str]:
    """The list as a reader should see it: no comments, no blank lines."""
    lines = (line.strip() for line in PACKAGES_FILE.read_text().splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def bash(script: str) -> str:
    return subprocess.run(
        ["bash", "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout


def final_stage_runs() -> list[tuple[str, str]]:
    """The Dockerfile's instructions after its last FROM, continuation lines joined."""
    text = (ROOT / "deploy" / "Dockerfile").read_text().replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines()]
    instructions = [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1])
        for line in lines
        if line and not line.startswith("#")
    ]
    last_from = max(i for i, (op, _) in enumerate(instructions) if op == "FROM")
    return instructions[last_from:]


def test_the_list_holds_pango_and_a_font_for_every_script():
    packages = listed_packages()
    assert len(packages) == len(set(packages)), packages
    assert set(packages) >= FONT_PACKAGES, FONT_PACKAGES - set(packages)
    assert {"libpango-1.0-0", "libpangoft2-1.0-0", "libharfbuzz-subset0"} <= set(packages)
    assert all(re.fullmatch(r"[a-z0-9][a-z0-9.+-]+", name) for name in packages), packages


def test_dev_ci_and_tests_install_the_list_through_lib_sh():
    # ensure_apt stubbed: what ensure_print_deps would install, without installing it.
    asked = bash(
        "source scripts/lib.sh; ensure_apt() { printf '%s\\n' \"$@\"; }; ensure_print_deps"
    ).split()
    # poppler-utils and gettext (makemessages, for the catalogue checks): the tests only
    assert asked == [*listed_packages(), "poppler-utils", "gettext"]
    for script in ("scripts/dev", "scripts/test"):
        assert re.search(r"^ensure_print_deps$", (ROOT / script).read_text(), re.M), script
    assert "exec bash scripts/test" in (ROOT / ".ci" / "run").read_text()


def test_dockerfile_installs_exactly_the_list():
    final = final_stage_runs()
    copies = [value.split() for op, value in final if op == "COPY"]
    copied_to = [dest for *sources, dest in copies if sources == ["deploy/print-packages.txt"]]
    assert copied_to, "the runtime stage must COPY deploy/print-packages.txt"
    installs = [value for op, value in final if op == "RUN" and "apt-get install" in value]
    assert len(installs) == 1, installs
    (run,) = installs
    # The packages come from the copied file alone: none is named in the Dockerfile itself.
    assert not set(run.split()) & set(listed_packages()), run
    # Run the Dockerfile's own filter over the list, with apt-get install replaced by echo.
    match = re.search(r"&&\s*(grep .*?" + re.escape(copied_to[0]) + r")\s*\|(.*?)&&", run)
    assert match, run
    filter_, install = match.groups()
    assert re.search(r"xargs apt-get install -y --no-install-recommends\s*$", install), install
    real_filter = filter_.replace(copied_to[0], str(PACKAGES_FILE))
    assert bash(f"{real_filter} | xargs echo").split() == listed_packages()


def test_the_bare_metal_guide_installs_the_list_too():
    guide = (ROOT / "deploy" / "README.md").read_text()
    assert "/opt/arbiter/deploy/print-packages.txt" in guide
    assert "fonts-noto-cjk" not in guide  # no second list to fall behind
