"""Worker processes that do not outlive the command that started them.

``damas mine`` and ``damas build`` hand work to a process pool.  When the command itself is killed
(``kill -9``, an out-of-memory kill, a closed terminal), its workers are never told: they would run
on as orphans, finishing their unit and then waiting forever on a queue nobody reads.  Each worker
therefore watches its parent from a daemon thread and exits as soon as the parent is gone (Linux's
``PR_SET_PDEATHSIG`` would do it in the kernel, but is neither portable nor reachable without
ctypes; a half-second poll costs nothing).
"""

from __future__ import annotations

import os
import signal
import threading
import time

from .collector import for_good

POLL_SECONDS = 0.5


def watch_parent() -> None:
    """A pool initializer: exit this worker (status 1, no cleanup) once its parent has died."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(POLL_SECONDS)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="damas-watch-parent", daemon=True).start()


def quiet_worker() -> None:
    """A pool initializer for workers of a command run from a terminal: Ctrl-C (sent to the whole
    process group) is the main process's to handle, and the worker exits once the main process is
    gone (:func:`watch_parent`).  It collects cyclic garbage less often (generator/collector.py)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for_good()
    watch_parent()
