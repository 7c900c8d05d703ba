"""The server clock of Spy's Word rooms (RULES 5.4-5.6, 5.10, 5.12): `now()` and `call_at`.

The engine has no clock: a room asks its clock to call it back when a timer runs out, and then
applies the engine's `Timeout` action. `LoopClock` is the real one (the event loop's monotonic
time). `FakeClock` is for tests: time stands still until the test calls `advance(seconds)`, which
runs every callback that falls due, in order, in the server's event loop, and returns when they
are done (no sleeping in tests).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from concurrent.futures import Future
from typing import Awaitable, Callable

Callback = Callable[[], Awaitable[None]]


class Handle:
    """A scheduled callback; `cancel()` makes it never run."""

    def __init__(self) -> None:
        self.cancelled = False
        self._timer: asyncio.TimerHandle | None = None

    def cancel(self) -> None:
        self.cancelled = True
        if self._timer is not None:
            self._timer.cancel()


class Clock:
    """What a room needs of a clock. `attach(loop)` is called once the server's loop runs."""

    loop: asyncio.AbstractEventLoop | None = None

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def now(self) -> float:  # pragma: no cover - interface
        raise NotImplementedError

    def call_at(self, when: float, callback: Callback) -> Handle:  # pragma: no cover - interface
        raise NotImplementedError


class LoopClock(Clock):
    """Real time: `time.monotonic()` seconds; callbacks run as tasks of the attached loop."""

    def __init__(self) -> None:
        self.tasks: set[asyncio.Task] = set()

    def now(self) -> float:
        return time.monotonic()

    def call_at(self, when: float, callback: Callback) -> Handle:
        handle = Handle()
        loop = self.loop or asyncio.get_running_loop()

        def fire() -> None:
            if not handle.cancelled:
                task = loop.create_task(callback())
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)

        handle._timer = loop.call_later(max(0.0, when - self.now()), fire)
        return handle


class FakeClock(Clock):
    """Test time: starts at `start` and moves only by `advance`."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = float(start)
        self._queue: list[tuple[float, int, Handle, Callback]] = []
        self._count = itertools.count()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callback) -> Handle:
        handle = Handle()
        heapq.heappush(self._queue, (float(when), next(self._count), handle, callback))
        return handle

    def pending(self) -> list[float]:
        """Seconds from now of every timer still armed (for tests)."""
        return sorted(w - self._now for w, _, h, _ in self._queue if not h.cancelled)

    async def _advance(self, seconds: float) -> None:
        target = self._now + float(seconds)
        while self._queue and self._queue[0][0] <= target:
            when, _, handle, callback = heapq.heappop(self._queue)
            if handle.cancelled:
                continue
            self._now = max(self._now, when)
            await callback()
        self._now = target

    def advance(self, seconds: float, timeout: float = 30.0) -> None:
        """Move time on by `seconds` from another thread (a test); the callbacks that fall due run
        in the server's loop, in order; returns when they are done."""
        if self.loop is None:
            raise RuntimeError("the clock is not attached to a running server")
        future: Future = asyncio.run_coroutine_threadsafe(self._advance(seconds), self.loop)
        future.result(timeout)
