#!/usr/bin/env python3
"""judge.py: judges conformance runs against expected.json (used by run.sh).

    judge.py [--expected FILE] RUNDIR [SELECTION...]

RUNDIR is a run directory of run.sh; a SELECTION is one of its conformance
directories (conf-0.1.16-all, ...), whose summary.json conformance_tally.py wrote.
Without SELECTIONs every selection in the expected file is judged. FILE defaults
to expected.json beside this script.

Every selection is judged the same way. It passes iff
  * the run completed, and each scenario's failure / warning counts match the
    checks recorded for it (a crashed scenario is a FAILURE `scenario-crashed`);
  * the set of (scenario, check id, status) over every FAILURE, WARNING and
    SKIPPED check, scored and unscored scenarios alike, equals the expected set:
    an entry not listed is UNEXPECTED, a listed one that no longer occurs NOW
    PASSES (or its scenario was not run) and must be removed from the file;
  * the scored scenarios passed at least `min_passed` checks, and every
    `must_pass` scenario ran and passed.
Output per selection: `PASS|FAIL SELECTION: detail`, then indented lines
(`  known: ...` for each group of expected entries still present, `  UNEXPECTED
...`, `  NOW PASSES ...`, `  ...`). Last line `N passed, M failed`.
Exit status 0 iff every selection passed; 2 on a malformed expected file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

STATUSES = ("failure", "warning", "skipped")


class BadExpected(Exception):
    pass


def load_expected(path: Path) -> dict:
    """{selection: {"min_passed", "must_pass", "entries": {(scen, check, status): why}, "groups": [...]}}"""
    try:
        doc = json.loads(path.read_text())
    except Exception as e:  # noqa: BLE001
        raise BadExpected(f"cannot read {path}: {e}") from e
    out = {}
    for sel, spec in doc.get("selections", {}).items():
        entries: dict[tuple[str, str, str], str] = {}
        groups = []
        for gi, group in enumerate(spec.get("expected", [])):
            why = group.get("why")
            if not why:
                raise BadExpected(f"{sel}: group {gi + 1} has no `why`")
            unknown = set(group) - {"why", *STATUSES}
            if unknown:
                raise BadExpected(f"{sel}: group {gi + 1} has unknown keys {sorted(unknown)}")
            keys = []
            for status in STATUSES:
                for item in group.get(status, []):
                    parts = item.split(" / ")
                    if len(parts) != 2 or not all(p.strip() == p and p for p in parts):
                        raise BadExpected(f"{sel}: {item!r} is not `scenario / check id`")
                    key = (parts[0], parts[1], status)
                    if key in entries:
                        raise BadExpected(f"{sel}: {status} {item} is listed twice")
                    entries[key] = why
                    keys.append(key)
            groups.append((why, keys))
        out[sel] = {
            "min_passed": int(spec.get("min_passed", 0)),
            "must_pass": dict(spec.get("must_pass", {})),
            "entries": entries,
            "groups": groups,
        }
    return out


def names(keys, limit: int = 4) -> str:
    items = [f"{s} / {c} ({st})" for s, c, st in keys]
    if len(items) > limit:
        return ", ".join(items[:limit]) + f" (+{len(items) - limit} more)"
    return ", ".join(items)


def judge(sel: str, summary_path: Path, exp: dict | None) -> tuple[bool, str, list[str]]:
    """(passed, one-line detail, further lines)"""
    lines: list[str] = []
    try:
        d = json.loads(summary_path.read_text())
    except Exception as e:  # noqa: BLE001
        return False, f"no summary.json ({e})", lines
    t, ns = d["totals"], d["not_scored_totals"]
    scenarios = d["scenarios"]
    unscored = [s for s in scenarios if not s["scored"]]
    nums = f"{t['passed']} passed, {t['failed']} failed, {t['warnings']} warnings"
    if exp is not None and exp["min_passed"]:
        nums += f" (want >= {exp['min_passed']} passed)"
    if unscored:
        nums += (f"; not scored: {len(unscored)} scenarios ({ns['passed']} passed, "
                 f"{ns['failed']} failed, {ns['warnings']} warnings)")
    for n in d.get("notes", []):
        lines.append(f"  note: {n}")
    if exp is None:
        return False, f"{nums}; {sel} has no entry in the expected file", lines

    why: list[str] = []
    if not d["completed"]:
        why.append(f"run incomplete: {d.get('run_problem')}")

    # The counts must be backed by recorded checks, or a failure could hide behind a set.
    for s in scenarios:
        nf = sum(p["status"] == "FAILURE" for p in s["problems"])
        nw = sum(p["status"] == "WARNING" for p in s["problems"])
        if (nf, nw) != (s["failed"], s["warnings"]):
            why.append(f"{s['name']}: {s['failed']} failed, {s['warnings']} warnings counted but "
                       f"{nf} failing, {nw} warning checks recorded (see the notes)")
    for tot, group in ((t, [s for s in scenarios if s["scored"]]), (ns, unscored)):
        if (tot["failed"], tot["warnings"]) != (sum(s["failed"] for s in group), sum(s["warnings"] for s in group)):
            if d["completed"]:
                why.append(f"totals ({tot['failed']} failed, {tot['warnings']} warnings) disagree with the "
                           "per-scenario counts (see the notes)")

    observed: dict[tuple[str, str, str], str] = {}
    for s in scenarios:
        for p in s["problems"]:
            observed.setdefault((s["name"], p["id"], p["status"].lower()), p["message"])
    expected = exp["entries"]
    unexpected = [k for k in observed if k not in expected]
    gone = [k for k in expected if k not in observed]
    ran = {s["name"]: s for s in scenarios}
    if unexpected:
        why.append(f"{len(unexpected)} unexpected: {names(unexpected)}")
        for k in unexpected:
            tag = "" if ran[k[0]]["scored"] else " [not scored]"
            lines.append(f"  UNEXPECTED {k[2]}{tag}: {k[0]} / {k[1]}: {observed[k]}")
    if gone:
        why.append(f"{len(gone)} expected but not seen (now passes? remove it from expected.json): {names(gone)}")
        for k in gone:
            other = [st for st in STATUSES if (k[0], k[1], st) in observed]
            if k[0] not in ran:
                where = "its scenario was not run"
            elif other:
                where = f"now {other[0]} instead"
            else:
                where = "now passes"
            lines.append(f"  NOW PASSES {k[2]}: {k[0]} / {k[1]} ({where}: remove it from expected.json)")

    if t["passed"] < exp["min_passed"]:
        why.append(f"expected at least {exp['min_passed']} passed, got {t['passed']}")
        lines.append("  passed checks per scored scenario: "
                     + ", ".join(f"{s['name']} {s['passed']}" for s in scenarios if s["scored"]))
    for name in exp["must_pass"]:
        s = ran.get(name)
        if s is None:
            why.append(f"{name} was not run")
        elif not s["ok"] or s["crashed"]:
            why.append(f"{name} did not pass ({s['passed']} passed, {s['failed']} failed)")

    # Expected entries still present, per reason.
    n_known = {st: 0 for st in STATUSES}
    for reason, keys in exp["groups"]:
        still = [k for k in keys if k in observed]
        if not still:
            continue
        counts = ", ".join(f"{sum(k[2] == st for k in still)} {st}"
                           for st in STATUSES if any(k[2] == st for k in still))
        scen = list(dict.fromkeys(k[0] for k in still))
        lines.append(f"  known: {counts} in {len(scen)} scenario(s) ({', '.join(scen)}): {reason}")
        for k in still:
            n_known[k[2]] += 1

    detail = nums
    known = ", ".join(f"{n} {st}" for st, n in n_known.items() if n)
    if known:
        detail += f"; known (expected.json): {known}"
    detail += "".join(f"; {name} passed" for name in exp["must_pass"] if name in ran and ran[name]["ok"])
    if why:
        return False, detail + "; " + "; ".join(why), lines
    return True, detail, lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--expected", type=Path, default=Path(__file__).resolve().parent / "expected.json")
    ap.add_argument("rundir", type=Path)
    ap.add_argument("selection", nargs="*")
    a = ap.parse_args()
    try:
        expected = load_expected(a.expected)
    except BadExpected as e:
        print(f"FAIL expected file: {e}")
        print("0 passed, 1 failed")
        return 2
    sels = a.selection or list(expected)
    ok = 0
    for sel in sels:
        passed, detail, lines = judge(sel, a.rundir / sel / "summary.json", expected.get(sel))
        print(f"{'PASS' if passed else 'FAIL'} {sel}: {detail}")
        for line in lines:
            print(line)
        ok += passed
    print(f"{ok} passed, {len(sels) - ok} failed")
    return 0 if ok == len(sels) else 1


if __name__ == "__main__":
    sys.exit(main())
