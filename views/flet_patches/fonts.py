"""The Flet patch that loads the app's font before the first frame (7 of
views/flet_patches/__init__.py). Why it exists and the upstream fix it stands in for:
docs/decisions/flet-patches-fonts.md.

7. The app's font in the web client's FontManifest.json (`_with_app_fonts`).
"""

from __future__ import annotations

from collections.abc import Callable

#: The app's font family (views/common.py FONT) as the web client's FontManifest.json lists it:
#: the file under assets/fonts (an asset path is fetched as "assets/<path>", so "../fonts/..." is
#: the URL /fonts/..., where Flet serves the app's assets directory). Regular only, as `page.fonts`
#: had it: bold stays drawn from it (DejaVuSans-Bold.ttf is wider, and every layout was measured
#: with the regular file's bold).
APP_FONTS = {"family": "DejaVu", "fonts": [{"asset": "../fonts/DejaVuSans.ttf"}]}


def _with_app_fonts(original: Callable[[str], None]) -> Callable[[str], None]:
    """Letters went missing in headings in headless Chromium ("Host bo d"). With the
    font set through `page.fonts` alone, the web client drew its first frames in its bundled
    Roboto, fetched DejaVu only once the page's tree had arrived (measured: 3 s later on a busy
    machine), then laid every text out again in it: the one moment a drawn page had its font
    swapped under it, the likeliest source of a frame with glyphs missing (not reproduced here
    in a dozen loads, delayed fonts included). A font in the manifest is loaded by the Flutter
    engine before the app's first frame: every text is drawn in DejaVu from the start, and
    nothing is swapped under a drawn page (tests/test_setup_layout_browser.py checks the text's
    width and its painted letters).
    Flet writes its patched manifest once, at its first request (`FletStaticFiles.__config`)."""

    def patch_font_manifest_json(manifest_path: str) -> None:
        import json

        original(manifest_path)
        with open(manifest_path, encoding="utf-8") as f:
            manifest = json.load(f)
        if not any(entry.get("family") == APP_FONTS["family"] for entry in manifest):
            manifest.append(APP_FONTS)
        with open(manifest_path, "w", encoding="utf-8") as f:
            json.dump(manifest, f, indent=2)

    return patch_font_manifest_json
