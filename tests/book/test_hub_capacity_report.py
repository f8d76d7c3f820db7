"""The capacity report's verdicts (``make hub-capacity``, ``_build/reports/hub-capacity.md``).

The measurement itself needs the local hub and ten minutes; these check, on made-up runs, that
the report marks a student over the course's Z2JH memory guarantee or limit as over, reads both
from ``tools/hub/z2jh/config.yaml``, and writes the report again from a saved run's JSON.
"""
import json

from tools.benchmarks import hub_capacity as capacity
from tools.hub import z2jh


def row(server, kernel, cpu=10.0):
    return {"server_peak_mb": server, "kernel_peak_mb": kernel, "kernel_uss_mb": kernel - 10,
            "cpu_s": cpu, "first_figure_s": 1.0, "run_s": 5.0, "open_s": 3.0,
            "click_to_figure_s": 4.0}


def run(n, chapter, rows):
    return {"students": n, "chapter": chapter, "rows": rows, "run_peak_mb": 500.0, "load": [0.5, 1.5]}


def test_kubespawner_sizes_are_powers_of_1024():
    assert capacity.mebibytes("640M") == 640
    assert capacity.mebibytes("1G") == 1024
    assert capacity.mebibytes("512K") == 0.5
    assert capacity.mebibytes(str(3 * capacity.MB)) == 3


def verdicts(lines, label):
    (line,) = [line for line in lines if line.startswith(f"| {label} |")]
    return [cell.strip() for cell in line.strip("|").split("|")]


def test_the_report_marks_what_passes_the_configs_guarantee_and_limit():
    memory = z2jh.values(z2jh.CONFIG)["singleuser"]["memory"]
    guarantee = capacity.mebibytes(memory["guarantee"])
    limit = capacity.mebibytes(memory["limit"])
    share = float(z2jh.values(z2jh.CONFIG)["singleuser"]["cpu"]["guarantee"])
    results = {"runs": [
        run(1, "inside", [row(100, guarantee - 101, cpu=6.0)]),
        run(1, "past_guarantee", [row(100, guarantee - 99)]),
        # the worst student decides, not the median
        run(3, "past_limit", [row(100, 100), row(100, limit), row(100, 100)]),
    ]}
    lines = capacity.design(results)
    assert str(z2jh.CONFIG.relative_to(capacity.ROOT)) in lines[0]
    assert verdicts(lines, "N = 1, inside")[2:] == ["yes", "yes", "6.0", f"{6.0 / share:.0f}"]
    assert verdicts(lines, "N = 1, past_guarantee")[2:4] == ["OVER", "yes"]
    assert verdicts(lines, "N = 3, past_limit")[1:4] == [f"{limit + 100:.0f}", "OVER", "OVER"]
    # another configuration, another verdict: the figures are read, not typed in
    roomy = {"singleuser": {"memory": {"guarantee": "4G", "limit": "8G"}, "cpu": {"guarantee": 1}}}
    assert verdicts(capacity.design(results, roomy), "N = 3, past_limit")[2:4] == ["yes", "yes"]


def test_the_report_is_written_again_from_a_saved_run(tmp_path, capsys):
    results = {"cpus": 2, "memory_gb": 7.8, "when": "2026-01-02 03:04 UTC",
               "runs": [run(1, "index", [row(150, 450)]),
                        run(1, capacity.CLASS_CHAPTER, [row(160, 200)]),
                        run(2, capacity.CLASS_CHAPTER, [row(160, 190), row(170, 210)])]}
    saved = tmp_path / "capacity.json"
    saved.write_text(json.dumps(results))
    capacity.main(["--from", str(saved)])
    report = capsys.readouterr().out
    assert "Measured 2026-01-02 03:04 UTC on 2 cores" in report
    assert "| index | 150 | 450 |" in report
    assert "| 2 | 165 / 170 | 200 / 210 |" in report
    assert "| N = 2, 03_mcmc | 380 |" in report
