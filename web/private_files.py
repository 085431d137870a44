"""Owner-only folders (0700) and files (0600) for what holds the site's data: the venue
folder and its database, the backup folder and every backup.

Each mode is set explicitly (``chmod`` after creating), never left to the umask: an
operator's umask of 022 or 002 would otherwise let every local user read API digests,
password hashes and every player's records.
"""

from __future__ import annotations

import os
from pathlib import Path

FOLDER_MODE = 0o700
FILE_MODE = 0o600


def private_folder(path: Path) -> Path:
    """The folder (and missing parents), made owner-only even when it already existed."""
    path.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    path.chmod(FOLDER_MODE)
    return path


def private_file(path: Path) -> Path:
    """The file, created empty when missing, made owner-only."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT, FILE_MODE)
    try:
        os.fchmod(descriptor, FILE_MODE)
    finally:
        os.close(descriptor)
    return path


def open_private(path: Path):
    """``path`` opened for writing bytes from empty, owner-only before anything is written."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    try:
        os.fchmod(descriptor, FILE_MODE)
        return os.fdopen(descriptor, "wb")
    except BaseException:
        os.close(descriptor)
        raise


def private_tree(root: Path) -> None:
    """Every folder and file under ``root`` (itself included) owner-only; links untouched.

    For a folder an older version (or another tool) filled with readable files."""
    private_folder(root)
    for folder, folders, files in os.walk(root):
        for name in folders:
            path = Path(folder, name)
            if not path.is_symlink():
                path.chmod(FOLDER_MODE)
        for name in files:
            path = Path(folder, name)
            if not path.is_symlink():
                path.chmod(FILE_MODE)
