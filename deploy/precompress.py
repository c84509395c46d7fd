"""Streamlit's static bundles, gzipped once at level 9, for the balancer to send as they are (deploy/static_gz.lua).

    python -m deploy.precompress OUT_DIR

HAProxy's own compression (libslz) is fast and stateless: it makes Streamlit's JavaScript and CSS about 2.8x
smaller, where gzip's level 9 makes the same files 3.3x smaller (benchmarks/FIRST-LOAD.md: 1.61 MB against about
1.0 MB for a first visit of 3.5.1). The bundles never change while a version of Streamlit is installed, so they are
compressed once, here, and the balancer keeps them in memory. ``OUT_DIR/manifest.tsv`` lists, per file, the address
Streamlit serves it at, its content type, and the compressed file beside the manifest.
"""

from __future__ import annotations

import gzip
import mimetypes
import sys
from pathlib import Path

__all__ = ["TYPES", "precompress", "static_root"]

TYPES = {".js": "text/javascript", ".css": "text/css", ".json": "application/json", ".svg": "image/svg+xml"}
PREFIX = "/static/"  # where Streamlit serves its bundles (no base URL path: the app is served at the root)


def static_root() -> Path:
    """The installed Streamlit's built frontend, whose ``static/`` it serves at /static/."""
    import streamlit

    return Path(streamlit.__file__).parent / "static" / "static"


def precompress(out: Path, root: Path | None = None) -> int:
    """Compress every bundle of ``root`` (default: the installed Streamlit's) into ``out``; the number of files."""
    root = root or static_root()
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    for path in sorted(root.rglob("*")):
        kind = TYPES.get(path.suffix)
        if kind is None or not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        if "\t" in rel or "\n" in rel:
            continue
        target = out / (rel + ".gz")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(gzip.compress(path.read_bytes(), compresslevel=9, mtime=0))
        lines.append(f"{PREFIX}{rel}\t{kind}\t{rel}.gz")
    (out / "manifest.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    mimetypes.init()
    count = precompress(Path(sys.argv[1]))
    sys.stdout.write(f"{count} bundles compressed into {sys.argv[1]}\n")
