"""The map's PNG: written unfiltered for speed, it decodes to exactly the pixels drawn and to what Pillow's writer gives."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import encode_png, render_image, render_map
from render.png import write_png
from tests.render.render_samples import sample_overlays, sample_view


@pytest.mark.parametrize("palette", ["colour", "grey"])
@pytest.mark.parametrize("crop", [None, (4, 3, 17, 12)])
def test_the_png_holds_exactly_the_drawn_pixels(palette: str, crop: tuple[int, int, int, int] | None) -> None:
    image = render_image(sample_view(), overlays=sample_overlays(), crop=crop, palette=palette)
    ours = Image.open(io.BytesIO(encode_png(image)))
    ours.verify()  # checksums and structure
    ours = Image.open(io.BytesIO(encode_png(image)))
    pillows = io.BytesIO()
    image.save(pillows, format="PNG")
    theirs = Image.open(pillows)
    assert (ours.format, ours.mode, ours.size) == ("PNG", image.mode, image.size)
    assert ours.tobytes() == image.tobytes() == theirs.tobytes()


def test_render_map_posts_that_png() -> None:
    view, overlays = sample_view(), sample_overlays()
    assert render_map(view, overlays=overlays) == write_png(render_image(view, overlays=overlays))


def test_only_rgb_and_grey_images_are_written() -> None:
    with pytest.raises(ValueError, match="RGB or L"):
        write_png(Image.new("RGBA", (4, 4)))
