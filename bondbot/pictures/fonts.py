"""The one font the pictures write words in: DejaVu Sans, from the host's font folders.

The font Pillow ships (`load_default`) has no accents: "René" would come out with a box.
DejaVu Sans writes every Latin, Greek and Cyrillic name; the Docker image installs it
(Debian's fonts-dejavu-core). Without it the pictures still draw, with Pillow's font.
"""

from __future__ import annotations

import logging
from functools import cache

from PIL import ImageFont

log = logging.getLogger(__name__)

FONT = "DejaVuSans.ttf"  # found in the system's font folders by Pillow
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@cache
def font(size: int) -> Font:
    try:
        return ImageFont.truetype(FONT, size)
    except OSError:
        log.warning("font %s not found (Debian: fonts-dejavu-core): accents show as boxes", FONT)
        return ImageFont.load_default(size)


def fitted(text: str, face: Font, width: float) -> str:
    """`text`, cut short with an ellipsis if it is wider than `width` pixels."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"
