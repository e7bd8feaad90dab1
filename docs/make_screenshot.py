"""Make docs/report.png, the README's picture of the HTML report: analyse the example estate and
photograph the top of the page with headless Chromium (the system binary; nothing is downloaded).

    python docs/make_screenshot.py [--out docs/report.png] [--width 1280] [--height 1500]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "report.png")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=1500)
    args = ap.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if chromium is None:
        print("error: no chromium on PATH (apt-get install chromium)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "report.html"
        subprocess.run([sys.executable, "-m", "lparscope.cli", "analyze", str(ROOT / "examples" / "estate"),
                        "-q", "--html", str(page)], check=True, stdout=subprocess.DEVNULL)
        shot = Path(tmp) / "shot.png"
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        "--disable-background-networking", "--no-first-run",
                        f"--window-size={args.width},{args.height}", f"--screenshot={shot}", page.as_uri()],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, args.out)
    print(f"{args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
