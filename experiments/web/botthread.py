"""The server's one bot thread, with a time limit on each job (`cnlab serve --bot-timeout`).

Bots think one at a time in one thread, so no model is used by two threads at once. A job that
runs past the limit (an operator's bot under `--any-bot` stuck in a loop, a language-model service
that never answers) would hold that thread, and so every game's bots, for ever: its future fails
with `BotTimeout` instead (its game reports the bot's failure), the thread is abandoned and a fresh
one runs the jobs waiting. Threads are daemons, so a stuck one never holds up the server's exit; its
late answer goes nowhere (its future is already done).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from concurrent.futures import Executor, Future

#: The default time limit of one bot move, in seconds. A bot's first move loads its models (about
#: 15 s for the default pair on an idle machine, several times that on a busy or cold one): the limit
#: leaves that room, since a first move cut short would end a person's game before it starts.
BOT_TIMEOUT = 180.0
WAKE = 3600.0   # the longest single wait of the watch (a lock's wait refuses a limit of years)


class BotTimeout(Exception):
    """A bot's job ran past the server's time limit (`bot_failed` names this type on the page)."""


class BotThread(Executor):
    """An executor of one thread at a time; a job running longer than `limit` seconds is abandoned
    with its thread (`BotTimeout`), and the jobs queued behind it run in a new thread."""

    def __init__(self, limit: float = BOT_TIMEOUT, name: str = "cnlab-bot"):
        self.limit = limit
        self.name = name
        self._cond = threading.Condition()
        self._jobs: deque = deque()
        self._running: tuple[Future, float] | None = None   # the job in the thread and its deadline
        self._worker: threading.Thread | None = None
        self._closed = False
        self._spawned = 0   # threads started (the first with the first job)

    def _spawn(self) -> None:
        self._spawned += 1
        self._worker = threading.Thread(target=self._work, name=f"{self.name}-{self._spawned}", daemon=True)
        self._worker.start()

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        with self._cond:
            if self._closed:
                raise RuntimeError("cannot schedule new futures after shutdown")
            self._jobs.append((future, fn, args, kwargs))
            if not self._spawned:
                self._spawn()
                threading.Thread(target=self._watch, name=f"{self.name}-watch", daemon=True).start()
            self._cond.notify_all()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop taking jobs; `wait` waits for the job running now only if its thread is not stuck
        past the limit (the watch abandons it meanwhile)."""
        with self._cond:
            self._closed = True
            dropped = list(self._jobs) if cancel_futures else []
            if cancel_futures:
                self._jobs.clear()
            self._cond.notify_all()
            worker = self._worker
        for future, *_ in dropped:
            future.cancel()
        if wait and worker is not None and worker is not threading.current_thread():
            worker.join(min(self.limit, WAKE))

    def _work(self) -> None:
        me = threading.current_thread()
        while True:
            with self._cond:
                while self._worker is me and not self._jobs and not self._closed:
                    self._cond.wait()
                if self._worker is not me or not self._jobs:
                    return   # abandoned (a fresh thread has the queue) or shut down with nothing left
                future, fn, args, kwargs = self._jobs.popleft()
                if not future.set_running_or_notify_cancel():
                    continue
                self._running = (future, time.monotonic() + self.limit)
                self._cond.notify_all()   # the watch starts counting
            try:
                result, error = fn(*args, **kwargs), None
            except BaseException as exc:  # a bot's SystemExit too: its game's failure, not the thread's
                result, error = None, exc
            with self._cond:
                if self._worker is not me:
                    return   # too late: the future failed with BotTimeout, the answer goes nowhere
                self._running = None
            if error is None:
                future.set_result(result)
            else:
                future.set_exception(error)
            del result, error, future

    def _watch(self) -> None:
        while True:
            with self._cond:
                while self._running is None or self._running[1] > time.monotonic():
                    if self._closed and not self._jobs and self._running is None:
                        return
                    left = None if self._running is None else self._running[1] - time.monotonic()
                    self._cond.wait(None if left is None else min(left, WAKE))
                future, _ = self._running
                self._running = None
                self._spawn()   # the stuck thread is left to itself; a fresh one takes the queue
            future.set_exception(BotTimeout(f"no move in {self.limit:g} s"))
