"""The bundled font every picture is drawn with: DejaVu Sans (Bitstream Vera licence).

Pictures show players' names and words in Dutch and Spanish, so the font must cover Latin-1
and Latin Extended-A (é, ñ, ü, Ł, ő ...); Pillow's own default font covers little beyond
ASCII. DejaVu Sans is shipped unmodified in ``fonts/`` with its licence (``fonts/LICENSE``),
which allows redistribution with software; a subset would count as a modified font under
that licence and would have to be renamed, so the whole file is shipped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

FONT_DIR: Final = Path(__file__).parent / "fonts"
#: The regular face used for every label and name in the pictures.
REGULAR: Final = FONT_DIR / "DejaVuSans.ttf"
