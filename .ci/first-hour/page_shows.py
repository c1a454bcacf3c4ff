#!/usr/bin/env python3
"""page_shows.py: checks that a page of the docs shows files as they are.

    page_shows.py PAGE FILE...

Each FILE must be the whole text of one fenced code block of PAGE (lines a
rust block hides from readers with `# ` are left out of the comparison).
Exits 1, naming the file, when one is not.
"""

import sys
from pathlib import Path


def blocks(page: str) -> list[str]:
    found, current = [], None
    for line in page.splitlines():
        if line.startswith("```"):
            if current is None:
                current = []
            else:
                found.append("\n".join(current) + "\n")
                current = None
        elif current is not None:
            if line.startswith("# ") or line == "#":
                continue
            current.append(line)
    return found


def main() -> int:
    page = Path(sys.argv[1])
    shown = blocks(page.read_text())
    missing = [f for f in sys.argv[2:] if Path(f).read_text() not in shown]
    for file in missing:
        print(f"error: {page.name} does not show {file} as it is (copy the file into the page)", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
