#!/usr/bin/env python3
"""conformance_tally.py: counts one conformance-suite run (used by conformance.sh).

    conformance_tally.py OUTDIR LOG CLI_EXIT_CODE TIMED_OUT(0|1) WALL_SECONDS LABEL

Sources, reconciled:
  * every OUTDIR/**/checks.json (a list of {id, status, errorMessage, ...});
    the directory is named `server-<scenario>-<ISO time with :. as ->`;
  * the CLI's log: `=== Running scenario: X ===` per scenario, then
    `=== SUMMARY ===` with `✓|✗ X: P passed, F failed` lines and
    `Total: P passed, F failed`; with --scenario instead
    `Passed: P/D, F failed, W warnings`; with --requirements (0.2.0 alphas) a
    trailing `Not scored for REV: N scenario(s) run, ...` block whose lines are
    `  ✓|✗ X (reason)`. `Total:` includes the unscored scenarios.
A scenario that crashed has a summary line (one synthetic failure) but no
checks.json; a run that was killed has neither for the rest; both count as failures.

stderr: one line per scenario, then each FAILURE, WARNING and SKIPPED check with
scenario, check id and message. stdout: a short report ending with exactly
`P passed, F failed, W warnings` (scored scenarios only).
Writes OUTDIR/summary.json for callers (run.sh, judge.py): totals, and per scenario
name, scored, passed / failed / warnings / skipped counts, crashed, ok and
`problems`, one {status, id, message} per FAILURE, WARNING or SKIPPED check (a
crashed or unfinished scenario gets a FAILURE with id `scenario-crashed` or
`scenario-unfinished`). INFO checks are left out. Exit status 0 iff F = 0 and
the run completed.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

TS_SUFFIX = re.compile(r"-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$")
RUNNING = re.compile(r"^=== Running scenario: (\S+) ===\s*$")
SINGLE = re.compile(r"^Running client scenario '([^']+)' against server")
SUMMARY_LINE = re.compile(r"^([✓✗]) (\S+): (\d+) passed, (\d+) failed\s*$")
TOTAL = re.compile(r"^Total: (\d+) passed, (\d+) failed")
PASSED_SINGLE = re.compile(r"^Passed: (\d+)/(\d+), (\d+) failed, (\d+) warnings")
NOT_SCORED_HEAD = re.compile(r"^Not scored for (\S+): (\d+) scenario\(s\) run, (\d+) failing")
NOT_SCORED_LINE = re.compile(r"^\s+([✓✗]) (\S+) \((.*)\)\s*$")
CRASH = re.compile(r"^Failed to run scenario (\S+):\s*(.*)$")


def scenario_of(dirname: str) -> str:
    name = TS_SUFFIX.sub("", dirname)
    return name[len("server-"):] if name.startswith("server-") else name


def one_line(text: object, limit: int = 400) -> str:
    s = " ".join(str(text).split())
    return s if len(s) <= limit else s[: limit - 3] + "..."


def main() -> int:
    outdir, log_path, cli_rc, timed_out, wall, label = sys.argv[1:7]
    outdir_p = Path(outdir)
    cli_rc_i = int(cli_rc)
    timed_out_b = timed_out == "1"
    log = Path(log_path).read_text(errors="replace").splitlines() if Path(log_path).exists() else []

    started: list[str] = []
    summary: dict[str, tuple[int, int]] = {}
    crash_msgs: dict[str, str] = {}
    not_scored: dict[str, str] = {}
    total: tuple[int, int] | None = None
    single: tuple[int, int, int] | None = None
    in_summary = in_not_scored = False
    for line in log:
        if m := RUNNING.match(line):
            started.append(m.group(1))
        elif (m := SINGLE.match(line)) and not started:
            started.append(m.group(1))
        if m := CRASH.match(line):
            crash_msgs[m.group(1)] = m.group(2)
        if line.startswith("=== SUMMARY ==="):
            in_summary, in_not_scored = True, False
            continue
        if m := NOT_SCORED_HEAD.match(line):
            in_summary, in_not_scored = False, True
            continue
        if in_summary and (m := SUMMARY_LINE.match(line)):
            summary[m.group(2)] = (int(m.group(3)), int(m.group(4)))
        elif in_not_scored and (m := NOT_SCORED_LINE.match(line)):
            not_scored[m.group(2)] = m.group(3)
        elif in_not_scored and line.strip() and not line.startswith(" "):
            in_not_scored = False
        if m := TOTAL.match(line):
            total = (int(m.group(1)), int(m.group(2)))
        if m := PASSED_SINGLE.match(line):
            single = (int(m.group(1)), int(m.group(3)), int(m.group(4)))

    # checks.json per scenario; a result directory without one is a scenario that never finished.
    from_json: dict[str, list[dict]] = {}
    unfinished_dirs: set[str] = set()
    if outdir_p.is_dir():
        for f in sorted(outdir_p.rglob("checks.json")):
            name = scenario_of(f.parent.name)
            try:
                checks = json.loads(f.read_text())
                if not isinstance(checks, list):
                    raise ValueError("not a list")
            except Exception as e:  # noqa: BLE001
                checks = [{"id": "checks.json", "status": "FAILURE", "errorMessage": f"unreadable {f}: {e}"}]
            from_json.setdefault(name, []).extend(checks)
        for d in outdir_p.iterdir():
            if d.is_dir() and TS_SUFFIX.search(d.name) and not (d / "checks.json").exists():
                unfinished_dirs.add(scenario_of(d.name))

    completed = not timed_out_b and (total is not None or single is not None)

    names: list[str] = []
    for n in [*started, *summary, *from_json, *sorted(unfinished_dirs)]:
        if n not in names:
            names.append(n)

    scenarios = []
    notes: list[str] = []
    for n in names:
        checks = from_json.get(n)
        crashed = False
        sk = 0
        problems: list[dict] = []
        if checks is not None:
            p = sum(c.get("status") == "SUCCESS" for c in checks)
            f = sum(c.get("status") == "FAILURE" for c in checks)
            w = sum(c.get("status") == "WARNING" for c in checks)
            sk = sum(c.get("status") == "SKIPPED" for c in checks)
            for c in checks:
                if c.get("status") in ("FAILURE", "WARNING", "SKIPPED"):
                    # A SKIPPED check says why in details.note rather than errorMessage.
                    details = c.get("details") if isinstance(c.get("details"), dict) else {}
                    problems.append(
                        {
                            "status": c["status"],
                            "id": c.get("id") or c.get("name") or "?",
                            "message": one_line(c.get("errorMessage") or details.get("note")
                                                or c.get("description") or ""),
                        }
                    )
            if n in summary and summary[n] != (p, f):
                notes.append(f"{n}: checks.json says {p} passed, {f} failed; the CLI summary says "
                             f"{summary[n][0]} passed, {summary[n][1]} failed")
                f = max(f, summary[n][1])
                p = min(p, summary[n][0])
        elif n in summary:
            # Crashed: the CLI made up a failure, nothing was written.
            p, f = summary[n]
            w = 0
            crashed = f > 0
            if crashed:
                problems.append({"status": "FAILURE", "id": "scenario-crashed",
                                 "message": one_line("no checks.json; " + crash_msgs.get(n, "the scenario threw"))})
            else:
                notes.append(f"{n}: no checks.json; counted from the CLI summary")
        else:
            crashed = True
            p, f, w = 0, 1, 0
            problems.append({"status": "FAILURE", "id": "scenario-unfinished",
                             "message": "the run ended before this scenario finished"})
        scored = n not in not_scored
        scenarios.append({
            "name": n, "scored": scored, "not_scored_reason": not_scored.get(n),
            "passed": p, "failed": f, "warnings": w, "skipped": sk, "crashed": crashed,
            "ok": f == 0 and p > 0, "problems": problems,
        })

    P = sum(s["passed"] for s in scenarios if s["scored"])
    F = sum(s["failed"] for s in scenarios if s["scored"])
    W = sum(s["warnings"] for s in scenarios if s["scored"])
    uP = sum(s["passed"] for s in scenarios if not s["scored"])
    uF = sum(s["failed"] for s in scenarios if not s["scored"])
    uW = sum(s["warnings"] for s in scenarios if not s["scored"])

    # The CLI's own total (minus unscored scenarios) must agree with ours.
    if total is not None:
        cli_p = total[0] - sum(summary.get(s["name"], (0, 0))[0] for s in scenarios if not s["scored"])
        cli_f = total[1] - sum(summary.get(s["name"], (0, 0))[1] for s in scenarios if not s["scored"])
        if (cli_p, cli_f) != (P, F):
            notes.append(f"the CLI's Total gives {cli_p} passed, {cli_f} failed for scored scenarios; "
                         f"the per-scenario count gives {P} passed, {F} failed; keeping the worse of each")
            P, F = min(P, cli_p), max(F, cli_f)
    elif single is not None and len(scenarios) == 1:
        if (single[0], single[1]) != (P, F):
            notes.append(f"the CLI says {single[0]} passed, {single[1]} failed; checks.json gives {P}/{F}")
            P, F = min(P, single[0]), max(F, single[1])

    run_problem = None
    if not completed:
        if timed_out_b:
            run_problem = "the run timed out and was killed"
        else:
            run_problem = f"the run ended without a summary (exit code {cli_rc_i})"
        F += 1
    elif cli_rc_i not in (0, 1):
        notes.append(f"the CLI exited with code {cli_rc_i}")
    elif (cli_rc_i == 0) != (F == 0):
        notes.append(f"the CLI exited with {cli_rc_i} while the count has {F} failed")

    # --- report ---------------------------------------------------------------------------
    err = sys.stderr
    for s in scenarios:
        mark = "✓" if s["failed"] == 0 and not s["crashed"] else "✗"
        extra = f", {s['warnings']} warnings" if s["warnings"] else ""
        extra += f", {s['skipped']} skipped" if s["skipped"] else ""
        tag = f"  [not scored: {s['not_scored_reason']}]" if not s["scored"] else ""
        print(f"{mark} {s['name']}: {s['passed']} passed, {s['failed']} failed{extra}{tag}", file=err)
    for s in scenarios:
        for prob in s["problems"]:
            tag = " [not scored]" if not s["scored"] else ""
            print(f"{prob['status']}{tag} {s['name']} / {prob['id']}: {prob['message']}", file=err)
    if run_problem:
        print(f"FAILURE run: {run_problem}", file=err)
    for n in notes:
        print(f"note: {n}", file=err)

    n_scored = sum(s["scored"] for s in scenarios)
    print(f"{label}: {len(scenarios)} scenarios ({n_scored} scored), {float(wall):.1f} s"
          + ("" if completed else f", INCOMPLETE: {run_problem}"))
    if len(scenarios) != n_scored:
        print(f"not scored: {len(scenarios) - n_scored} scenarios, {uP} passed, {uF} failed, {uW} warnings")
    print(f"{P} passed, {F} failed, {W} warnings")

    doc = {
        "label": label, "completed": completed, "timed_out": timed_out_b, "cli_exit_code": cli_rc_i,
        "wall_seconds": float(wall), "run_problem": run_problem, "notes": notes,
        "totals": {"passed": P, "failed": F, "warnings": W},
        "not_scored_totals": {"passed": uP, "failed": uF, "warnings": uW},
        "scenarios": scenarios,
    }
    if outdir_p.is_dir():
        (outdir_p / "summary.json").write_text(json.dumps(doc, indent=2) + "\n")
    return 0 if F == 0 and completed else 1


if __name__ == "__main__":
    sys.exit(main())
