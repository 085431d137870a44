"""Draw the installable app's icons (static/icons/icon-192.png, icon-512.png) with Pillow.

The favicon's picture: three white pips on the green square, kept inside the middle
so a launcher that crops the icon to a circle keeps them: the green fills the square and
the pips lie within 31% of the side from the centre, inside the 40% safe zone of a
maskable icon (the manifest offers icon-512.png as one). Run: python scripts/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

GREEN = (0, 137, 90, 255)
WHITE = (255, 255, 255, 255)
OUT = Path(__file__).resolve().parent.parent / "static" / "icons"


def icon(size: int) -> Image.Image:
    """The icon at ``size`` pixels: drawn 4x larger and scaled down for smooth edges."""
    big = size * 4
    image = Image.new("RGBA", (big, big), GREEN)
    draw = ImageDraw.Draw(image)
    radius = big * 0.075
    for fx, fy in ((0.34, 0.34), (0.5, 0.5), (0.66, 0.66)):
        x, y = fx * big, fy * big
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=WHITE)
    return image.resize((size, size), Image.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        icon(size).save(OUT / f"icon-{size}.png", optimize=True)


if __name__ == "__main__":
    main()
