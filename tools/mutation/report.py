"""The mutation study's score per module (``make mutation`` runs it after mutmut).

mutmut 3 writes, for each mutated file, ``mutants/<path>.meta``: a JSON object whose
``exit_code_by_key`` maps every mutant to the exit code of the tests run against it. A mutant is
*killed* when a test failed (or hung past mutmut's timeout: a mutant that loops forever is
caught too); it *survived* when every test that covers its function passed; "no tests" means no
test in the selection calls that function at all (counted against the score, like a survivor);
"not checked" mutants (a run stopped early) are left out of the score and counted apart.

Usage: ``python -m tools.mutation.report _build/mutation`` prints a Markdown table (``make mutation`` writes it to ``_build/reports/mutation.md``)
and lists the survivors by module (``mutmut show NAME`` in that folder shows each diff).
"""
import json
import sys
from collections import Counter
from pathlib import Path

from mutmut.stats import status_by_exit_code

KILLED = {"killed", "timeout", "segfault"}


def results(folder):
    """{module: {mutant name: status}} from the .meta files under ``folder``/mutants."""
    found = {}
    for meta in sorted((Path(folder) / "mutants").rglob("*.py.meta")):
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        module = meta.name.removesuffix(".py.meta")
        found[module] = {name: status_by_exit_code[code] for name, code in codes.items()}
    return found


def table(found):
    lines = ["| module | mutants | checked | killed | of which timed out | survived | no test | score |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    total = Counter()
    for module, statuses in found.items():
        counts = Counter("killed" if s in KILLED else s for s in statuses.values())
        counts["timeout"] = sum(s == "timeout" for s in statuses.values())
        total.update(counts)
        lines.append(row(module, counts))
    lines.append(row("**all**", total))
    return "\n".join(lines)


def row(module, counts):
    n = sum(v for k, v in counts.items() if k != "timeout")
    checked = n - counts["not checked"]
    score = f"{counts['killed'] / checked:.1%}" if checked else "–"
    return (f"| {module} | {n} | {checked} | {counts['killed']} | {counts['timeout']} | "
            f"{counts['survived']} | {counts['no tests']} | {score} |")


def main(folder):
    found = results(folder)
    if not found:
        sys.exit(f"no mutmut results under {folder}/mutants: run `make mutation`")
    print(table(found))
    for module, statuses in found.items():
        alive = sorted(name for name, s in statuses.items()
                       if s not in KILLED and s != "not checked")
        if alive:
            print(f"\n{module}: {len(alive)} not killed")
            for name in alive:
                print(f"  {statuses[name]:10} {name}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "_build/mutation")
