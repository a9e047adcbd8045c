"""Where a scoring program made by ``ts-eval codabench`` finds gold and the submission: the one file the
platform unpacked into ``input/ref`` and ``input/res``, folders down while the zip held only a folder, leaving out
what the platform and zip programs add beside it."""
from __future__ import annotations

import os
from typing import List, Optional

from ..errors import InputError

#: not the participant's: the platform's own file in ``res`` (the prediction step's exit code and times), the
#: folder macOS's zip adds (names that start with a dot are left out too)
NOT_SUBMITTED = ("metadata", "__MACOSX")


def found(folder: str, what: str, name: Optional[str]) -> str:
    """The one file of ``folder`` (``name`` among several), a folder down while ``folder`` holds only a folder
    (a zip of ``outputs/run1/FILE`` is two down)."""
    if not os.path.isdir(folder):
        raise InputError(f"no {what} (expected a folder {folder})")
    files, folders = listing(folder)
    while not files and len(folders) == 1:
        folder = folders[0]
        files, folders = listing(folder)
    if name is not None and os.path.join(folder, name) in files:
        return os.path.join(folder, name)
    if len(files) == 1:
        if files[0].lower().endswith(".zip"):       # the platform unpacks one zip, not a zip in it
            raise InputError(f"the {what} holds a zip, {os.path.basename(files[0])}; expected the file itself: zip "
                             "the file once, not a zip of it")
        return files[0]
    held = f"{len(files)} files ({', '.join(os.path.basename(f) for f in files)})" if files else "no file"
    if folders:
        held += f" and the folder{'s' if len(folders) > 1 else ''} {', '.join(os.path.basename(f) for f in folders)}"
    raise InputError(f"the {what} holds {held}; expected one file{', ' + name if name else ''}")


def listing(folder: str) -> List[List[str]]:
    """[files, folders] of ``folder`` that someone put there (not :data:`NOT_SUBMITTED`, no hidden names)."""
    names = [os.path.join(folder, n) for n in sorted(os.listdir(folder))
             if not n.startswith(".") and n not in NOT_SUBMITTED]
    return [[p for p in names if os.path.isfile(p)], [p for p in names if os.path.isdir(p)]]
