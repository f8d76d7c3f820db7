"""The course's Zero to JupyterHub configuration, checked without a cluster.

Beside this file: ``config.yaml`` (the course's values for the Helm chart jupyterhub 4.4.0),
``Dockerfile`` (the students' image) and ``chart/``, the chart's own ``values.yaml`` (its
defaults) and ``values.schema.yaml`` (the JSON schema helm validates the values against before
it renders anything), copied unchanged from the chart (``chart/README.md``).

:func:`values` does what helm does with ``--values`` files: it merges them, in order, over the
chart's defaults (maps merge key by key; a list or a scalar replaces the default; ``null``
removes the default's key). :func:`errors` validates the result against the schema.

Usage: python -m tools.hub.z2jh [FILE ...]   (default: config.yaml; exit 1 on any error)
"""
import copy
import sys
from pathlib import Path

import jsonschema
import yaml

HERE = Path(__file__).resolve().parent
CONFIG = HERE / "config.yaml"
DOCKERFILE = HERE / "Dockerfile"
CHART = HERE / "chart"
DEFAULTS = CHART / "values.yaml"
SCHEMA = CHART / "values.schema.yaml"
# The chart's version and the JupyterHub it deploys (its Chart.yaml's version and appVersion).
CHART_VERSION = "4.4.0"
CHART_JUPYTERHUB = "5.5"


def load(path):
    return yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}


def merge(base, override):
    """``override`` over ``base`` as helm coalesces values (neither argument is changed)."""
    merged = copy.deepcopy(base)
    for key, value in override.items():
        if value is None:
            merged.pop(key, None)
        elif isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def values(*configs):
    """The chart's defaults with each config (a mapping or a YAML file) merged over in turn."""
    result = load(DEFAULTS)
    for config in configs:
        result = merge(result, config if isinstance(config, dict) else load(config))
    return result


def errors(merged):
    """Every violation of the chart's schema in ``merged``, as ``path: message`` lines."""
    validator = jsonschema.Draft7Validator(load(SCHEMA))
    return sorted(f"{'.'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
                  for e in validator.iter_errors(merged))


def main(argv=None):
    files = (argv if argv is not None else sys.argv[1:]) or [CONFIG]
    found = errors(values(*files))
    for line in found:
        print(line)
    if not found:
        print(f"valid for the chart jupyterhub {CHART_VERSION}: {', '.join(map(str, files))}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
