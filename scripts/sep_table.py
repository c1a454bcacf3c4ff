#!/usr/bin/env python3
"""Checks that every test a conformance table names exists and is a test.

The table (docs/sep-3371.md by default) names its proofs as
`path/to/file.rs::function_name`. For every such reference this script
checks that:

1. the file exists, relative to the repository root;
2. the file defines `fn function_name` carrying a `#[test]` or
   `#[tokio::test]` attribute (any `#[tokio::test(...)]` variant), among
   the attributes directly above it (doc comments, comments and other
   attributes such as `#[should_panic]` may sit in between);
3. with `--list FILE` (the saved output of
   `cargo test --workspace -- --list`), that `function_name` is the last
   path segment of some `...: test` line, so the test is really compiled
   and run by the workspace.

Each missing reference is printed with the reason, and the exit status is
1; it is 1 too when the table names no reference at all. On success it
prints how many references were checked. Standard library only.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

REFERENCE = re.compile(r"([A-Za-z0-9_./-]+\.rs)::([a-z0-9_]+)")
TEST_ATTRIBUTE = re.compile(r"^#\[\s*(?:tokio\s*::\s*)?test\s*(?:\(|\]$)")
QUALIFIERS = re.compile(
    r"(?:pub\s*(?:\([^()]*\))?\s+)?(?:(?:const|async|unsafe|extern\s*(?:\"[^\"]*\")?)\s+)*$"
)
LIST_LINE = re.compile(r"^\s*(\S.*?):\s+test\s*$")


@dataclass(frozen=True)
class Reference:
    file: str
    function: str

    def __str__(self) -> str:
        return f"{self.file}::{self.function}"


def blank_comments_and_strings(text: str) -> str:
    """`text` with comments and the contents of string and character
    literals replaced by spaces (newlines kept), so that brackets and
    `fn` inside them are never mistaken for code. Quotes are kept."""
    out = list(text)
    n = len(text)
    i = 0

    def blank(start: int, end: int) -> None:
        for k in range(start, min(end, n)):
            if out[k] != "\n":
                out[k] = " "

    def ident_char(c: str) -> bool:
        return c.isalnum() or c == "_"

    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "/":
            end = text.find("\n", i)
            end = n if end == -1 else end
            blank(i, end)
            i = end
        elif c == "/" and nxt == "*":
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif c in "rb" and (i == 0 or not ident_char(text[i - 1])):
            # Raw strings r"..", r#".."#, br"..", and byte strings b"..".
            m = re.match(r'(?:br|rb|r)(#*)"', text[i:])
            if m:
                hashes = m.group(1)
                start = i + m.end()
                close = text.find('"' + hashes, start)
                close = n if close == -1 else close
                blank(start, close)
                i = close + 1 + len(hashes)
            elif c == "b" and nxt == '"':
                i += 1  # the string itself is handled on the next turn
            else:
                i += 1
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            blank(i + 1, j)
            i = j + 1
        elif c == "'":
            # A character literal ('x', '\n', '\u{1F600}'), or a lifetime.
            if nxt == "\\":
                close = text.find("'", i + 2)
                close = n if close == -1 else close
                blank(i + 1, close)
                i = close + 1
            elif i + 2 < n and text[i + 2] == "'":
                blank(i + 1, i + 2)
                i += 3
            else:
                i += 1
        else:
            i += 1
    return "".join(out)


def attributes_before(code: str, position: int) -> list[str]:
    """The outer attributes written directly before `position` (the start
    of an item's qualifiers), nearest last."""
    attributes: list[str] = []
    i = position
    while True:
        while i > 0 and code[i - 1].isspace():
            i -= 1
        if i == 0 or code[i - 1] != "]":
            break
        depth, j = 0, i - 1
        while j >= 0:
            if code[j] == "]":
                depth += 1
            elif code[j] == "[":
                depth -= 1
                if depth == 0:
                    break
            j -= 1
        if j <= 0 or code[j - 1] != "#":
            break
        attributes.append(re.sub(r"\s+", " ", code[j - 1 : i]).strip())
        i = j - 1
    attributes.reverse()
    return attributes


def test_functions(code: str, function: str) -> tuple[int, int]:
    """How many definitions of `fn function` the (blanked) code holds, and
    how many of them carry a test attribute."""
    found = tested = 0
    for m in re.finditer(rf"\bfn\s+{re.escape(function)}\s*[(<]", code):
        found += 1
        before = code[: m.start()]
        qualifiers = QUALIFIERS.search(before)
        start = qualifiers.start() if qualifiers else m.start()
        if any(TEST_ATTRIBUTE.match(a) for a in attributes_before(code, start)):
            tested += 1
    return found, tested


def listed_tests(path: Path) -> set[str]:
    """The last path segment of every `...: test` line of a saved
    `cargo test -- --list` output."""
    names: set[str] = set()
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        m = LIST_LINE.match(line)
        if m:
            names.add(m.group(1).rsplit("::", 1)[-1].strip())
    return names


def main(argv: list[str] | None = None) -> int:
    root_default = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(
        description=(
            "Check that every `file.rs::function` test named in a conformance "
            "table exists, is marked #[test] or #[tokio::test], and (with "
            "--list) is listed by `cargo test --workspace -- --list`."
        ),
        epilog=(
            "Exit status: 0 when every reference is found; 1 when one is "
            "missing or the table names none; 2 on bad usage."
        ),
    )
    parser.add_argument(
        "--root",
        type=Path,
        default=root_default,
        help="repository root the paths are relative to (default: %(default)s)",
    )
    parser.add_argument(
        "--doc",
        type=Path,
        default=None,
        help="the table to read (default: ROOT/docs/sep-3371.md)",
    )
    parser.add_argument(
        "--list",
        dest="list_file",
        type=Path,
        metavar="FILE",
        help="saved output of `cargo test --workspace -- --list`",
    )
    args = parser.parse_args(argv)

    root: Path = args.root.resolve()
    doc: Path = args.doc if args.doc is not None else root / "docs" / "sep-3371.md"
    if not doc.is_file():
        print(f"error: no table at {doc}", file=sys.stderr)
        return 1
    text = doc.read_text(encoding="utf-8")

    occurrences = [Reference(m.group(1), m.group(2)) for m in REFERENCE.finditer(text)]
    if not occurrences:
        print(f"error: {doc} names no `file.rs::function` reference", file=sys.stderr)
        return 1
    unique = sorted(set(occurrences), key=lambda r: (r.file, r.function))

    listed: set[str] | None = None
    if args.list_file is not None:
        if not args.list_file.is_file():
            print(f"error: no list at {args.list_file}", file=sys.stderr)
            return 1
        listed = listed_tests(args.list_file)
        if not listed:
            print(f"error: {args.list_file} lists no `: test` line", file=sys.stderr)
            return 1

    blanked: dict[str, str | None] = {}
    missing: list[str] = []
    for ref in unique:
        path = (root / ref.file).resolve()
        if ref.file not in blanked:
            inside = path == root or root in path.parents
            blanked[ref.file] = (
                blank_comments_and_strings(path.read_text(encoding="utf-8", errors="replace"))
                if inside and path.is_file()
                else None
            )
        code = blanked[ref.file]
        if code is None:
            missing.append(f"{ref}: no such file")
            continue
        found, tested = test_functions(code, ref.function)
        if not found:
            missing.append(f"{ref}: the file defines no `fn {ref.function}`")
            continue
        if not tested:
            missing.append(
                f"{ref}: `fn {ref.function}` has no #[test] or #[tokio::test] attribute"
            )
            continue
        if listed is not None and ref.function not in listed:
            missing.append(f"{ref}: not among the tests `cargo test -- --list` lists")

    for line in missing:
        print(f"missing: {line}")
    if missing:
        print(
            f"{len(missing)} of {len(unique)} distinct references missing "
            f"({len(occurrences)} references in {doc.name})"
        )
        return 1
    files = len({r.file for r in unique})
    listed_note = " and listed by cargo" if listed is not None else ""
    print(
        f"ok: {len(occurrences)} references checked ({len(unique)} distinct tests "
        f"in {files} files), all defined as tests{listed_note}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
