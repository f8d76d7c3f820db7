"""Benchmark the live figures in headless chromium: its Markdown table is what
`make benchmark` writes to _build/reports/widgets.md (tests/README.md has the targets).

Not a test (timings depend on the machine): it prints a Markdown table and writes JSON.
Usage: python -m tools.benchmarks.widgets [OUT.json]   (default _build/widgets/benchmark.json)

What it measures, on the demo page opened from file:// (bundle built fresh by esbuild):
- the bundle's size, minified and gzipped, without the data script;
- the posterior explorer: time per update while a slider is dragged (input events along a
  drag), for the prior sd (the likelihood is cached), the number of observations (a coarser
  grid while dragging) and x*; and the full 241 x 241 update on release;
- importance sampling: time per update while the proposal's centre is dragged;
- Metropolis at the default settings and speed: frames per second, work per frame, and how
  often the diagnostics are refreshed, over a whole run of 12,000 steps per chain;
- VI: frames per second and work per frame while Adam runs;
- the funnel: time per update while the step-size and leapfrog sliders are dragged (each
  restarts the four chains), and a whole centred HMC run of 2,000 iterations at the default
  speed (frames per second, work per frame, diagnostics refreshed per second); then the
  Metropolis scale dragged, and five seconds of the random walk on the centred form;
- the dimension widget: time per update while d is dragged from 1 to 100 and back, and five
  seconds of both samplers at d = 100 (frames per second, work per frame, diagnostics).
"""
import gzip
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bayescomp.book import widgets
from bayescomp.book.widgets import FIGURE_NAMES as FIGURE

from ..toc import ROOT

DEFAULT_OUT = ROOT / "_build" / "widgets" / "benchmark.json"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]

DRAG = """async ([name, control, values, release]) => {
  const root = document.querySelector(`[data-widget="${name}"]`);
  const input = root.querySelector(`[data-control="${control}"]`);
  const widget = root.bcWidget.widget;
  const times = [];
  for (const v of values) {
    input.value = v;
    const t0 = performance.now();
    input.dispatchEvent(new Event('input', { bubbles: true }));
    times.push(performance.now() - t0);
    await new Promise(requestAnimationFrame);
  }
  let final = null;
  if (release) {
    const t0 = performance.now();
    input.dispatchEvent(new Event('change', { bubbles: true }));
    final = performance.now() - t0;
  }
  return { times, final };
}"""

CENTRE_DRAG = f"""async ([draws]) => {{
  const root = document.querySelector('[data-widget="{FIGURE.importance_sampling}"]');
  const widget = root.bcWidget.widget;
  root.bcWidget.set({{ preset: 'laplace', draws }});
  const times = [];
  for (let i = 0; i < 30; i += 1) {{
    const t0 = performance.now();
    widget.update({{ centre: [-0.3 + 0.02 * i, 1.4 - 0.01 * i] }}, false);
    times.push(performance.now() - t0);
    await new Promise(requestAnimationFrame);
  }}
  return times;
}}"""


def frame_summary(stats, start, end):
    frames = [t for t in stats["frames"] if start <= t <= end]
    work = [w for t, w in zip(stats["frames"], stats["work"]) if start <= t <= end]
    gaps = [b - a for a, b in zip(frames, frames[1:])]
    return {"fps": 1000 * (len(frames) - 1) / (frames[-1] - frames[0]),
            "work_median_ms": statistics.median(work), "work_p95_ms": percentile(work, 95),
            "work_max_ms": max(work), "frames_over_20ms": sum(g > 20 for g in gaps) / len(gaps)}


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def summary(times):
    return {"median_ms": statistics.median(times), "p95_ms": percentile(times, 95),
            "max_ms": max(times), "n": len(times)}


def animate(page, name, until):
    """Play widget ``name`` until the JS predicate ``until`` holds (or for ``until`` ms): frame
    rate, work per frame, and how often its diagnostics were refreshed."""
    widget = f"document.querySelector('[data-widget=\"{name}\"]').bcWidget"
    start = page.evaluate("performance.now()")
    page.evaluate(f"{widget}.set({{playing: true}})")
    if isinstance(until, str):
        page.wait_for_function(until, timeout=600_000)
    else:
        page.wait_for_timeout(until)
    end = page.evaluate("performance.now()")
    page.evaluate(f"{widget}.set({{playing: false}})" if not isinstance(until, str) else "0")
    stats = page.evaluate(f"{widget}.widget.frameStats")
    refreshes = [t for t in page.evaluate(f"{widget}.widget.refreshTimes") if start <= t <= end]
    gaps = [b - a for a, b in zip(refreshes, refreshes[1:])]
    return {**frame_summary(stats, start, end), "seconds": (end - start) / 1000,
            "diagnostics_per_second": len(refreshes) / ((end - start) / 1000),
            "diagnostics_longest_gap_ms": max(gaps) if gaps else None}


def run(out_path=DEFAULT_OUT):
    from playwright.sync_api import sync_playwright

    build = Path(tempfile.mkdtemp(prefix="bcw-bench-"))
    subprocess.run(["node", str(ROOT / "code" / "widgets" / "build.mjs"), str(build)], check=True,
                   capture_output=True)
    subprocess.run([sys.executable, "-m", "bayescomp.book.widgets", str(build)], check=True,
                   capture_output=True)
    bundle = (build / "bayescomp-widgets.js").read_bytes()
    result = {"bundle_bytes": len(bundle), "bundle_gzip_bytes": len(gzip.compress(bundle, 9)),
              "data_bytes": (build / "bayescomp-widgets-data.js").stat().st_size}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                             args=ARGS)
        page = browser.new_page(viewport={"width": 1000, "height": 1000})
        page.goto((build / "demo.html").as_uri())
        page.wait_for_function(f"() => document.querySelector('[data-widget=\"{FIGURE.laplace_vi}\"]').bcWidget")
        version = browser.version

        # Posterior explorer: drags of each slider, then a release.
        page.locator(f'[data-widget="{FIGURE.posterior_explorer}"]').scroll_into_view_if_needed()
        steps = list(range(150, 300, 4)) + list(range(300, 60, -6))   # log positions of 0..300
        prior = page.evaluate(DRAG, [FIGURE.posterior_explorer, "prior_sd", steps, True])
        n_values = list(range(80, 4, -3)) + list(range(5, 78, 3))   # ends on n = 77: new on release
        n_drag = page.evaluate(DRAG, [FIGURE.posterior_explorer, "n", n_values, True])
        x_drag = page.evaluate(DRAG, [FIGURE.posterior_explorer, "x_star", [i / 10 - 3 for i in range(60)], False])
        result["explorer"] = {"prior_sd_drag": summary(prior["times"]), "n_drag": summary(n_drag["times"]),
                              "x_star_drag": summary(x_drag["times"]),
                              "release_full_grid_ms": n_drag["final"]}

        # Importance sampling: dragging the centre.
        page.locator(f'[data-widget="{FIGURE.importance_sampling}"]').scroll_into_view_if_needed()
        result["importance"] = {f"centre_drag_{n}": summary(page.evaluate(CENTRE_DRAG, [n]))
                                for n in (2000, 20000)}

        # What this browser manages with nothing to do: an empty requestAnimationFrame loop.
        result["empty_loop_fps"] = page.evaluate("""() => new Promise(done => {
            const times = []; const frame = t => { times.push(t);
              if (t - times[0] < 3000) requestAnimationFrame(frame);
              else done(1000 * (times.length - 1) / (t - times[0])); };
            requestAnimationFrame(frame); })""")

        # Metropolis: a whole run at the defaults, as the reader starts it.
        page.locator(f'[data-widget="{FIGURE.metropolis}"]').scroll_into_view_if_needed()
        page.evaluate(f"document.querySelector('[data-widget=\"{FIGURE.metropolis}\"]').bcWidget.set({{preset: 'book'}})")
        start = page.evaluate("performance.now()")
        page.locator(f'[data-widget="{FIGURE.metropolis}"] [data-control="play"]').click()
        page.wait_for_function(f"() => {{ const r = document.querySelector('[data-widget=\"{FIGURE.metropolis}\"]')"
                               ".bcWidget.readout(); return !r.playing && r.steps >= 12000; }",
                               timeout=600_000)
        end = page.evaluate("performance.now()")
        stats = page.evaluate(f"document.querySelector('[data-widget=\"{FIGURE.metropolis}\"]').bcWidget.widget.frameStats")
        refreshes = page.evaluate(f"document.querySelector('[data-widget=\"{FIGURE.metropolis}\"]').bcWidget.widget.refreshTimes")
        inside = [t for t in refreshes if start <= t <= end]
        gaps = [b - a for a, b in zip(inside, inside[1:])]
        final = page.evaluate(f"document.querySelector('[data-widget=\"{FIGURE.metropolis}\"]').bcWidget.readout()")
        result[FIGURE.metropolis] = {**frame_summary(stats, start, end), "seconds": (end - start) / 1000,
                                "diagnostics_per_second": len(inside) / ((end - start) / 1000),
                                "diagnostics_longest_gap_ms": max(gaps), "rhat": final["rhat"],
                                "speed": final["speed"]}

        # VI: Adam animating at the defaults for 4 seconds.
        page.locator(f'[data-widget="{FIGURE.laplace_vi}"]').scroll_into_view_if_needed()
        start = page.evaluate("performance.now()")
        page.evaluate(f"document.querySelector('[data-widget=\"{FIGURE.laplace_vi}\"]').bcWidget.set({{playing: true}})")
        page.wait_for_timeout(4000)
        end = page.evaluate("performance.now()")
        stats = page.evaluate(f"document.querySelector('[data-widget=\"{FIGURE.laplace_vi}\"]').bcWidget.widget.frameStats")
        result["vi"] = frame_summary(stats, start, end)
        page.evaluate(f"document.querySelector('[data-widget=\"{FIGURE.laplace_vi}\"]').bcWidget.set({{playing: false}})")

        # The funnel: dragging its sliders, then a whole centred run as the reader starts it.
        page.locator(f'[data-widget="{FIGURE.funnel}"]').scroll_into_view_if_needed()
        step = page.evaluate(DRAG, [FIGURE.funnel, "step", list(range(100, 200, 3)) + list(range(200, 60, -4)), True])
        leapfrog = page.evaluate(DRAG, [FIGURE.funnel, "leapfrog", list(range(10, 50)) + list(range(50, 1, -1)), True])
        page.evaluate(f"document.querySelector('[data-widget=\"{FIGURE.funnel}\"]').bcWidget.set({{preset: 'centred-neck'}})")
        result[FIGURE.funnel] = {"step_drag": summary(step["times"]), "leapfrog_drag": summary(leapfrog["times"]),
                            **animate(page, FIGURE.funnel, "() => { const r = document.querySelector("
                                      f"'[data-widget=\"{FIGURE.funnel}\"]').bcWidget.readout();"
                                      " return !r.playing && r.steps >= 2000; }")}

        # Its random walk: dragging the scale, then five seconds of the walk on the centred form.
        page.evaluate(f"document.querySelector('[data-widget=\"{FIGURE.funnel}\"]').bcWidget.set({{sampler: 'random-walk', form: 'centred', starts: null}})")
        scale = page.evaluate(DRAG, [FIGURE.funnel, "scale", list(range(100, 200, 3)) + list(range(200, 0, -4)), True])
        result["funnel_walk"] = {"scale_drag": summary(scale["times"]), **animate(page, FIGURE.funnel, 5000)}

        # The dimension widget: dragging d, then both samplers at d = 100 for five seconds.
        page.locator(f'[data-widget="{FIGURE.dimension}"]').scroll_into_view_if_needed()
        stops = len(widgets.DimensionSettings().d_values)
        d_drag = page.evaluate(DRAG, [FIGURE.dimension, "d", (list(range(stops)) + list(range(stops - 1, -1, -1))) * 2, True])
        page.evaluate(f"document.querySelector('[data-widget=\"{FIGURE.dimension}\"]').bcWidget.set({{d: 100}})")
        result[FIGURE.dimension] = {"d_drag": summary(d_drag["times"]),
                               **animate(page, FIGURE.dimension, 5000)}
        browser.close()
    result["browser"] = f"Chromium {version}, headless, software rendering"
    Path(out_path).parent.mkdir(parents=True, exist_ok=True)
    Path(out_path).write_text(json.dumps(result, indent=2))
    return result


def markdown(r):
    e, m, v, i = r["explorer"], r[FIGURE.metropolis], r["vi"], r["importance"]
    f, fw, dm = r[FIGURE.funnel], r["funnel_walk"], r[FIGURE.dimension]
    rows = [
        ("Bundle, minified (gzipped), without data", f"{r['bundle_bytes'] / 1024:.1f} KB ({r['bundle_gzip_bytes'] / 1024:.1f} KB)", "≤ 200 KB"),
        ("Explorer, dragging the prior sd (likelihood cached while the grid box holds)", f"{e['prior_sd_drag']['median_ms']:.1f} ms median, {e['prior_sd_drag']['p95_ms']:.1f} ms p95", "≤ 50 ms median"),
        ("Explorer, dragging n (81 × 81 grid while dragging)", f"{e['n_drag']['median_ms']:.1f} ms median, {e['n_drag']['p95_ms']:.1f} ms p95", "≤ 50 ms median"),
        ("Explorer, dragging x*", f"{e['x_star_drag']['median_ms']:.1f} ms median", ""),
        ("Explorer, release: full 241 × 241 grid, new likelihood", f"{e['release_full_grid_ms']:.0f} ms", ""),
        ("IS, dragging the centre, 2,000 / 20,000 draws", f"{i['centre_drag_2000']['median_ms']:.1f} / {i['centre_drag_20000']['median_ms']:.1f} ms median", ""),
        (f"Metropolis, default speed ({m['speed']} steps/frame), a whole 12,000-step run", f"{m['fps']:.1f} fps; work per frame {m['work_median_ms']:.1f} ms median, {m['work_p95_ms']:.1f} ms p95", "60 fps"),
        ("Metropolis, diagnostics refreshed", f"{m['diagnostics_per_second']:.1f} per second (longest gap {m['diagnostics_longest_gap_ms']:.0f} ms)", "≥ 4 per second"),
        ("VI, Adam animating (5 steps × 256 draws per frame)", f"{v['fps']:.1f} fps; work per frame {v['work_median_ms']:.1f} ms median", ""),
        ("Funnel, dragging the step size / the leapfrog steps (each restarts four chains)", f"{f['step_drag']['median_ms']:.1f} / {f['leapfrog_drag']['median_ms']:.1f} ms median, {max(f['step_drag']['p95_ms'], f['leapfrog_drag']['p95_ms']):.1f} ms p95", "≤ 50 ms median"),
        ("Funnel, centred HMC (4 iterations × 10 leapfrog steps per chain per frame), a whole 2,000-iteration run", f"{f['fps']:.1f} fps; work per frame {f['work_median_ms']:.1f} ms median, {f['work_p95_ms']:.1f} ms p95", "60 fps"),
        ("Funnel, diagnostics refreshed", f"{f['diagnostics_per_second']:.1f} per second (longest gap {f['diagnostics_longest_gap_ms']:.0f} ms)", "≥ 4 per second"),
        ("Funnel, dragging the Metropolis scale (each restarts four chains)", f"{fw['scale_drag']['median_ms']:.1f} ms median, {fw['scale_drag']['p95_ms']:.1f} ms p95", "≤ 50 ms median"),
        ("Funnel, random-walk Metropolis on the centred form, five seconds", f"{fw['fps']:.1f} fps; work per frame {fw['work_median_ms']:.1f} ms median, {fw['work_p95_ms']:.1f} ms p95", "60 fps"),
        ("Funnel, Metropolis diagnostics refreshed", f"{fw['diagnostics_per_second']:.1f} per second (longest gap {fw['diagnostics_longest_gap_ms']:.0f} ms)", "≥ 4 per second"),
        ("Dimension, dragging d over its stops from 1 to 100 and back (each restarts eight chains)", f"{dm['d_drag']['median_ms']:.1f} ms median, {dm['d_drag']['p95_ms']:.1f} ms p95", "≤ 50 ms median"),
        ("Dimension, both samplers at d = 100 (8 HMC iterations and 24 walk steps per chain per frame)", f"{dm['fps']:.1f} fps; work per frame {dm['work_median_ms']:.1f} ms median, {dm['work_p95_ms']:.1f} ms p95", "60 fps"),
        ("Dimension, diagnostics refreshed", f"{dm['diagnostics_per_second']:.1f} per second (longest gap {dm['diagnostics_longest_gap_ms']:.0f} ms)", "≥ 4 per second"),
    ]
    lines = ["| measure | result | target |", "|---|---|---|"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    return ("\n".join(lines) + f"\n\n{r['browser']}; an empty animation loop ran at "
            f"{r['empty_loop_fps']:.1f} fps on the same page.")


if __name__ == "__main__":
    print(markdown(run(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT)))
