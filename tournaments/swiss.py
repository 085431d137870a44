"""Deprecated alias of :mod:`pairing.swiss`, kept for one release.

``python -m tournaments.swiss < state.json`` still works and gives exactly what
``python -m pairing.swiss`` gives; scripts should move to the new name, and this
module will be removed in the next release.
"""

import sys
import warnings

from pairing.swiss import (
    Pairing,
    SwissInputError,
    SwissPlayer,
    main,
    pair,
    pair_round,
    pair_state,
)

__all__ = ["Pairing", "SwissInputError", "SwissPlayer", "main", "pair", "pair_round", "pair_state"]

warnings.warn(
    "tournaments.swiss is deprecated: use pairing.swiss", DeprecationWarning, stacklevel=2
)

if __name__ == "__main__":
    sys.exit(main())
