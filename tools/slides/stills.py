"""A still image of every live figure, for the handouts, printing and RISE.

A live figure needs JavaScript; paper does not run it, and RISE (JupyterLab's live slides)
cannot load Jupyter widgets. So each widget is drawn once, as on its slide (the deck's sizes,
a slide wide) and in the state a lecture shows (the book's Metropolis run, the VI fit), by
headless chromium from a page that loads the widgets' bundle and data, and saved as a PNG:

- ``_build/widgets/stills/<name>.png`` (:data:`STILLS`), with ``links.json``: for each widget,
  its deck's path, the id of its live slide there and the still's file; the Jupyter display of
  a widget, told this folder by ``BAYESCOMP_STILLS``, offers the still (embedded) and a link to
  that slide to any front end that cannot show the widget (RISE);
- a copy in the decks' ``vendor/stills/``: a deck shows the still instead of the live figure
  when printed (the PDF handouts, or a browser's print).

Chromium is Debian's, run from the command line (the build install has no Playwright) with
the network cut, as for the handouts.

Usage: python -m tools.slides.stills _build/slides_out/slides
"""
import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat
from PIL import Image, ImageChops

from bayescomp.book.widgets import BUNDLE_NAME, DATA_NAME, PLACEHOLDER

from .. import toc
from ..freshness import Stamps, files_hash
from ..toc import CHAPTERS, ROOT
from .build import CANVAS, deck_file
from .handouts import CHROMIUM, FLAGS

#: Where the stills and their links.json go in this checkout: the build names the folder (the
#: package never guesses it), and `make lab` and the tests' JupyterLab pass it to the kernel
#: as BAYESCOMP_STILLS (bayescomp.book.widgets.STILLS_ENV).
STILLS = ROOT / "_build" / "widgets" / "stills"
# The widget's box on a slide: the canvas less the margins.
WIDTH, HEIGHT = CANVAS[0] - 20, CANVAS[1] - 60

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>still</title>
<style>
body {{ margin: 0; background: #fff; }}
.reveal {{ width: {width}px; font-family: system-ui, sans-serif; }}
.reveal .bcw-keys {{ display: none !important; }}
</style></head>
<body><div class="reveal"><div class="slides"><section>
<div data-widget="{name}"></div>
</section></div></div>
<script src="{data}"></script>
<script src="{bundle}"></script>
<script>
window.addEventListener("load", function () {{
  document.querySelector("[data-widget]").bcWidget.widget.still();
}});
</script>
</body></html>
"""


def live_slides():
    """Each widget's deck and the id of its slide there: {name: (deck file, slide id)}."""
    found = {}
    for chapter in CHAPTERS:
        notebook = nbformat.read(toc.notebook(chapter), as_version=4)
        for cell in notebook.cells:
            if cell.cell_type == "markdown":
                for name in PLACEHOLDER.findall(cell.source):
                    found[name] = (deck_file(chapter), slide_id(name))
    return found


def slide_id(name):
    """The id of the slide that holds widget ``name`` in its deck (``deck.html#/live-NAME``)."""
    return f"live-{name}"


def crop(path):
    """Trim the white below and beside the widget."""
    image = Image.open(path).convert("RGB")
    box = ImageChops.difference(image, Image.new("RGB", image.size, "white")).getbbox()
    if box:
        image.crop((0, 0, image.width, min(image.height, box[3] + 8))).save(path)


def shoot(name, folder, profile):
    page = folder / f"still-{name}.html"
    page.write_text(PAGE.format(width=WIDTH, name=name, data=DATA_NAME,
                                bundle=BUNDLE_NAME), encoding="utf-8")
    png = STILLS / f"{name}.png"
    png.unlink(missing_ok=True)
    command = [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--hide-scrollbars",
               f"--window-size={WIDTH},{HEIGHT}", f"--screenshot={png}", page.as_uri()]
    run = subprocess.run(command, capture_output=True, text=True, timeout=180)
    page.unlink()
    if run.returncode != 0 or not png.exists():
        raise RuntimeError(f"chromium could not draw {name} (exit {run.returncode}):\n"
                           f"{run.stderr[-2000:]}")
    crop(png)
    return png


def make_stills(decks):
    """Draw the stills (unless those drawn from the same bundle, data and page are there) and
    copy them next to the decks."""
    slides = live_slides()
    vendor = decks / "vendor"   # the deck's copies of the package's bundle and data script
    key = files_hash([vendor / BUNDLE_NAME, vendor / DATA_NAME,
                      Path(__file__)], json.dumps(slides, sort_keys=True))
    links = {name: {"deck": str(decks / deck), "slide": slide, "still": f"{name}.png"}
             for name, (deck, slide) in slides.items()}
    stamps = Stamps(STILLS / "drawn-from.json")
    current = stamps.current(STILLS, key, *(STILLS / link["still"] for link in links.values()))
    if not current:
        if not Path(CHROMIUM).exists():
            sys.exit(f"{CHROMIUM} is missing: run `bash tools/scripts/install_chromium.sh` first")
        STILLS.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="stills-chromium-") as profile:
            for name in links:
                png = shoot(name, vendor, profile)
                print(f"{png.relative_to(ROOT)}: {Image.open(png).size}")
        stamps.record(STILLS, key)
    (STILLS / "links.json").write_text(json.dumps(links, indent=1), encoding="utf-8")
    (decks / "vendor" / "stills").mkdir(parents=True, exist_ok=True)
    for link in links.values():
        shutil.copy(STILLS / link["still"], decks / "vendor" / "stills" / link["still"])
    print(f"stills: {len(links)} live figures{'' if not current else ' (unchanged, not redrawn)'}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("decks", type=Path, nargs="?",
                        default=ROOT / "_build" / "slides_out" / "slides")
    make_stills(parser.parse_args().decks.resolve())
