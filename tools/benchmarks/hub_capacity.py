"""Measure what a class costs a JupyterHub, against the targets of TEACHING.md's "Capacity".

Not a test (the figures depend on the machine and on what else runs on it): it prints Markdown
tables (``make hub-capacity`` writes them to ``_build/reports/hub-capacity.md``; the guide holds
no measured figures) and writes JSON. Usage:

    python -m tools.benchmarks.hub_capacity [--students 1 5 10] [--out OUT.json]
    python -m tools.benchmarks.hub_capacity --from OUT.json     (the report again, no measuring)

(default ``_build/hub/capacity.json``; ``make hub-capacity``). On the local hub of ``make hub``
(``tools/hub/local.py``: JupyterHub, configurable-http-proxy, one process per student's server),
simulated students in headless chromium click the course's nbgitpuller link, log in, and run
all cells of a chapter in JupyterLab, as in ``tests/hub/test_class.py``.

- N = 1: one student runs every chapter in turn (each in a kernel of its own, shut down after:
  one chapter open at a time, as a lecture goes).
- N > 1: N students click the link at once and run the MCMC chapter at once.

Measured for each student and chapter, by sampling the student's processes every 0.2 s
(psutil): the peak resident memory (RSS) of their single-user server and of the chapter's
kernel, and their peak USS (memory no other process shares, every 1 s); the CPU seconds (user + system) the server used from the chapter's opening to the end
of Run All, plus the chapter's kernel's whole life (its start included); the
seconds from Run All to the first figure on the page and to the last cell, and from the click
on the link to the chapter open in JupyterLab. Also the peak RSS of the whole run (hub, proxy,
servers, kernels) and the machine's load average, since the two cores are shared. Last, each
chapter's server plus kernel peak against the memory guarantee and limit of the course's Zero to
JupyterHub configuration (``tools/hub/z2jh/config.yaml``).

Not measured: the browser (it runs on each student's own machine), container or Kubernetes
overheads, and network latency (everything is on 127.0.0.1).
"""
import argparse
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

import psutil
from playwright.sync_api import sync_playwright

from tests.browser.lab import EXPOSE_APP, LAB_OFFLINE_FLAGS, failures, not_run
from tests.browser.offline import CHROMIUM, CHROMIUM_ARGS
from tests.hub.students import CLASS_ARGS, Student, chapter_file, wait_all

from ..hub import z2jh
from ..hub.local import Course, LocalHub, chapter_path, pull_link, singleuser_env
from ..toc import CHAPTERS, ROOT

DEFAULT_OUT = ROOT / "_build" / "hub" / "capacity.json"
CLASS_CHAPTER = "03_mcmc"
MB = 2 ** 20
TIMEOUT = 900


class Sampler(threading.Thread):
    """Peak RSS per process, by role, for every student, and of the whole run, every ``every`` s."""

    def __init__(self, hub, every=0.2):
        super().__init__(daemon=True)
        self.hub, self.every = hub, every
        self.peak = {}            # (user, role, pid) -> bytes
        self.total = 0            # peak of the sum over every process of the run
        self.halt = threading.Event()

    def reset(self):
        self.peak, self.total = {}, 0

    def run(self):
        tick, roles = 0, {}
        while not self.halt.is_set():
            if tick % 10 == 0:               # look for new processes (kernels) every 10 samples
                roles = self.roles()
            total = 0
            for process, key in list(roles.items()):
                try:
                    rss = process.memory_info().rss
                    # USS (memory no other process shares) costs more to read: every 5th sample
                    uss = process.memory_full_info().uss if key and tick % 5 == 0 else 0
                except psutil.Error:
                    roles.pop(process)
                    continue
                total += rss
                if key:
                    self.peak[key] = max(self.peak.get(key, 0), rss)
                    uss_key = (key[0], key[1] + "-uss", key[2])
                    self.peak[uss_key] = max(self.peak.get(uss_key, 0), uss)
            self.total = max(self.total, total)
            tick += 1
            self.halt.wait(self.every)

    def roles(self):
        """Every process of the run -> (user, role, pid), role "server", "kernel" or "helper"
        (what else a server starts: git for nbgitpuller, JupyterLab's build check), or None
        (the hub, the proxy)."""
        roles = {process: None for process in self.hub.processes()}
        for process in list(roles):
            try:
                user = process.environ().get("JUPYTERHUB_USER")
                if user and "jupyterhub-singleuser" in " ".join(process.cmdline()):
                    roles[process] = (user, "server", process.pid)
                    for child in process.children(recursive=True):
                        kernel = "ipykernel" in " ".join(child.cmdline())
                        roles[child] = (user, "kernel" if kernel else "helper", child.pid)
            except psutil.Error:
                continue
        return roles

    def user_peak(self, user, role):
        return max((v for (u, r, _), v in self.peak.items() if u == user and r == role), default=0)


def cpu_seconds(processes):
    """Total user + system CPU seconds of these processes (the dead ones count 0)."""
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
            total += times.user + times.system
        except psutil.Error:
            continue
    return total


def run_chapter(students, hub, link, chapter, sampler, fresh_page):
    """Every student clicks ``link`` at once, then runs all of ``chapter`` at once. Returns one
    row per student."""
    sampler.reset()
    for student in students:
        if fresh_page:
            student.new_page()
            student.follow(link)
        else:
            student.log_in(link)
    wait_all(students, lambda s: s.open_notebook() == chapter_file(chapter), TIMEOUT, f"{chapter} open")
    opened_at = time.monotonic()
    servers = {s.name: hub.server_process(s.name) for s in students}
    cpu0 = {name: cpu_seconds([server]) for name, server in servers.items()}
    for student in students:
        student.start_run_all()
    states = wait_all(students, Student.run_state, TIMEOUT, f"Run All of {chapter}")
    rows = []
    for student in students:
        # the server's CPU during the run, and the chapter's kernel's whole life (its start too)
        kernels = hub.kernels(student.name)
        server_cpu = cpu_seconds([servers[student.name]]) - cpu0[student.name]
        state = states[student.name]
        assert "error" not in state, f"{student.name}: {state['error']}"
        result = state["result"]
        assert result["ok"] and not failures(result) and not not_run(result), (
            student.name, failures(result)[:3], not_run(result))
        rows.append({
            "student": student.name, "chapter": chapter,
            "server_peak_mb": sampler.user_peak(student.name, "server") / MB,
            "kernel_peak_mb": sampler.user_peak(student.name, "kernel") / MB,
            "server_uss_mb": sampler.user_peak(student.name, "server-uss") / MB,
            "kernel_uss_mb": sampler.user_peak(student.name, "kernel-uss") / MB,
            "helper_peak_mb": sampler.user_peak(student.name, "helper") / MB,
            "cpu_s": server_cpu + cpu_seconds(kernels),
            "kernel_cpu_s": cpu_seconds(kernels),
            "open_s": opened_at - student.marks["click"],
            "run_s": result["seconds"],
            "first_figure_s": result["firstFigure"],
            "click_to_figure_s": (student.marks["run"] - student.marks["click"]
                                  + (result["firstFigure"] or 0))})
    for student in students:
        shut_down_kernels(hub, student.name)
    return rows, sampler.total / MB


def shut_down_kernels(hub, name):
    for kernel in hub.user_api(name, "GET", "/api/kernels") or []:
        hub.user_api(name, "DELETE", f"/api/kernels/{kernel['id']}")


def measure(sizes, out):
    venv = singleuser_env()
    results = {"cpus": os.cpu_count(), "memory_gb": psutil.virtual_memory().total / 2 ** 30,
               "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "runs": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS + CLASS_ARGS)
        for n in sizes:
            with LocalHub(venv, lab_args=[*LAB_OFFLINE_FLAGS, EXPOSE_APP], timeout=TIMEOUT) as hub:
                course = Course(hub.dir / "course")
                sampler = Sampler(hub)
                sampler.start()
                students = [Student(f"s{n:02d}-{i:02d}", browser, hub) for i in range(n)]
                chapters = CHAPTERS if n == 1 else (CLASS_CHAPTER,)
                load0 = os.getloadavg()[0]
                try:
                    for k, chapter in enumerate(chapters):
                        # ?reset: JupyterLab opens this chapter alone (no tab of the last one)
                        link = pull_link(course.url, chapter_path(chapter) + "?reset")
                        rows, total = run_chapter(students, hub, link, chapter, sampler, k > 0)
                        results["runs"].append({"students": n, "chapter": chapter, "rows": rows,
                                                "run_peak_mb": total,
                                                "load": [load0, os.getloadavg()[0]]})
                        # progress on stderr: stdout is the report
                        print(summary_line(n, chapter, rows, total), file=sys.stderr, flush=True)
                        save(results, out)     # after every run: a failure later keeps these
                finally:
                    sampler.halt.set()
                    for student in students:
                        student.close()
        browser.close()
    return results


def save(results, out):
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1))


def summary_line(n, chapter, rows, total):
    return (f"N={n} {chapter}: server {max(r['server_peak_mb'] for r in rows):.0f} MB, kernel "
            f"{max(r['kernel_peak_mb'] for r in rows):.0f} MB, CPU {max(r['cpu_s'] for r in rows):.1f} s, "
            f"run {max(r['run_s'] for r in rows):.1f} s, whole run {total:.0f} MB")


def table(results):
    """The report (``_build/reports/hub-capacity.md``), in Markdown."""
    def med(rows, key):
        return statistics.median(r[key] for r in rows)

    def top(rows, key):
        return max(r[key] for r in rows)

    lines = ["# What a class costs the local hub", "",
             f"Measured {results.get('when', '(time not recorded)')} on {results['cpus']} cores and "
             f"{results['memory_gb']:.1f} GB (`make hub-capacity`, "
             "`tools/benchmarks/hub_capacity.py`); the load average is the machine's, shared with "
             "other jobs: wall times grow with it, CPU seconds and memory hardly.", "",
             "Per chapter, one student (N = 1):", "",
             "| chapter | server peak MB | kernel peak MB | kernel USS MB | CPU s (server + kernel) | "
             "first figure s | Run All s |", "|---|---:|---:|---:|---:|---:|---:|"]
    for run in (r for r in results["runs"] if r["students"] == 1):
        (row,) = run["rows"]
        figure = "no figure" if row["first_figure_s"] is None else f"{row['first_figure_s']:.1f}"
        lines.append(f"| {run['chapter']} | {row['server_peak_mb']:.0f} | {row['kernel_peak_mb']:.0f}"
                     f" | {row['kernel_uss_mb']:.0f} | {row['cpu_s']:.1f} | {figure} | {row['run_s']:.1f} |")
    lines += ["", f"The class chapter ({CLASS_CHAPTER}) with N students at once (median / worst):", "",
              "| N | server peak MB | kernel peak MB | CPU s per student | click to chapter open s |"
              " click to first figure s | Run All s | whole hub peak MB | load avg |",
              "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for run in (r for r in results["runs"] if r["chapter"] == CLASS_CHAPTER):
        rows = run["rows"]
        cells = [f"{med(rows, k):.0f} / {top(rows, k):.0f}" for k in ("server_peak_mb", "kernel_peak_mb")]
        cells += [f"{med(rows, k):.1f} / {top(rows, k):.1f}"
                  for k in ("cpu_s", "open_s", "click_to_figure_s", "run_s")]
        lines.append(f"| {run['students']} | " + " | ".join(cells)
                     + f" | {run['run_peak_mb']:.0f} | {run['load'][0]:.1f} to {run['load'][1]:.1f} |")
    return "\n".join(lines + ["", *design(results)])


def mebibytes(size):
    """A KubeSpawner memory size ("640M", "1G": powers of 1024) in MB of 2**20 bytes."""
    text = str(size)
    scale = {"K": 2 ** -10, "M": 1, "G": 2 ** 10, "T": 2 ** 20}
    return float(text[:-1]) * scale[text[-1]] if text[-1] in scale else float(text) / MB


def design(results, config=z2jh.CONFIG):
    """Each run's worst server + kernel peak against the Z2JH memory guarantee and limit, and its
    worst CPU seconds as the wall time of a Run All held to the CPU guarantee's share of a core."""
    singleuser = z2jh.values(config)["singleuser"]
    memory, cpu = singleuser["memory"], singleuser["cpu"]
    guarantee, limit = mebibytes(memory["guarantee"]), mebibytes(memory["limit"])
    share = float(cpu["guarantee"])
    where = config.relative_to(ROOT) if isinstance(config, Path) else "the given values"
    lines = [f"Against the course's Z2JH design ({where}): memory guarantee {memory['guarantee']} "
             f"({guarantee:.0f} MB), limit {memory['limit']} ({limit:.0f} MB), CPU guarantee "
             f"{cpu['guarantee']} core; the worst student of each run:", "",
             "| run | server + kernel peak MB | within the guarantee | within the limit | CPU s |"
             f" Run All at {cpu['guarantee']} core s |",
             "|---|---:|---|---|---:|---:|"]
    for run in results["runs"]:
        peak = max(r["server_peak_mb"] + r["kernel_peak_mb"] for r in run["rows"])
        cpu_s = max(r["cpu_s"] for r in run["rows"])
        lines.append(f"| N = {run['students']}, {run['chapter']} | {peak:.0f} | "
                     f"{'yes' if peak <= guarantee else 'OVER'} | {'yes' if peak <= limit else 'OVER'}"
                     f" | {cpu_s:.1f} | {cpu_s / share:.0f} |")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, nargs="+", default=[1, 5, 10])
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("--from", dest="source", metavar="JSON",
                        help="write the report from an earlier run's JSON instead of measuring")
    args = parser.parse_args(argv)
    if args.source:
        print(table(json.loads(Path(args.source).read_text())))
    else:
        print(table(measure(args.students, args.out)))


if __name__ == "__main__":
    main()
