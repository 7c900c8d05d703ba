"""Process hardening for isolated agents (Linux; elsewhere every step reports "unsupported").

The game process calls `protect_game_process()` before it starts an agent process: it becomes
non-dumpable, so a process of the same user cannot read its memory (/proc/PID/mem,
process_vm_readv), its environment (/proc/PID/environ) or attach to it, unless it holds
CAP_SYS_PTRACE. The agent process calls `harden_agent_process()` before it imports any agent
code: it drops every capability (a root agent keeps uid 0 and the files root owns, but loses
CAP_SYS_PTRACE, CAP_DAC_READ_SEARCH and the rest, for good: no_new_privs and an empty bounding
set), turns non-dumpable itself (so sibling agents cannot read each other), and dies with its
parent. The game process is also a child subreaper while it has agents (`set_child_subreaper`):
what an agent starts in a session of its own (setsid) comes back to it when the agent is gone,
and is killed (`children_in_other_sessions`). What is left is the file system and signals: an
agent can read what its user can read and signal its user's processes (see docs/isolation.md).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG, PR_GET_DUMPABLE, PR_SET_DUMPABLE = 1, 3, 4
PR_SET_CHILD_SUBREAPER, PR_GET_CHILD_SUBREAPER = 36, 37
PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 24, 38, 47, 4
_LINUX_CAPABILITY_VERSION_3 = 0x20080522


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def _libc():
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def _prctl(libc, option: int, arg2: int = 0) -> bool:
    return libc.prctl(ctypes.c_int(option), ctypes.c_ulong(arg2), ctypes.c_ulong(0), ctypes.c_ulong(0),
                      ctypes.c_ulong(0)) >= 0


def is_dumpable() -> bool | None:
    libc = _libc()
    if libc is None:
        return None
    return libc.prctl(ctypes.c_int(PR_GET_DUMPABLE), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0),
                      ctypes.c_ulong(0)) == 1


def set_dumpable(flag: bool) -> bool:
    libc = _libc()
    return libc is not None and _prctl(libc, PR_SET_DUMPABLE, 1 if flag else 0)


def is_child_subreaper() -> bool | None:
    libc = _libc()
    if libc is None:
        return None
    flag = ctypes.c_int(0)
    if libc.prctl(ctypes.c_int(PR_GET_CHILD_SUBREAPER), ctypes.byref(flag), ctypes.c_ulong(0), ctypes.c_ulong(0),
                  ctypes.c_ulong(0)) < 0:
        return None
    return flag.value != 0


def set_child_subreaper(flag: bool) -> bool:
    """Orphans among this process's descendants (what an agent started, in a session of its own,
    once the agent is gone) become this process's children instead of init's: it can kill them."""
    libc = _libc()
    return libc is not None and _prctl(libc, PR_SET_CHILD_SUBREAPER, 1 if flag else 0)


def children_in_other_sessions() -> list[int]:
    """This process's children whose session is not its own (every agent starts a session of its
    own, and nothing an agent starts can join this one). Read from /proc; [] where there is none."""
    me, session = os.getpid(), os.getsid(0)
    found = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()  # after "pid (comm)": state ppid pgrp session
        except (OSError, IndexError):
            continue
        if len(fields) > 3 and int(fields[1]) == me and int(fields[3]) != session:
            found.append(int(name))
    return found


def protect_game_process() -> bool:
    """Make this process (it holds the game state) unreadable to its agents. True when done."""
    return set_dumpable(False)


def effective_capabilities() -> int | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("CapEff:"):
                    return int(line.split()[1], 16)
    except OSError:
        return None
    return None


def harden_agent_process() -> dict[str, str]:
    """Lock this (agent) process down before any agent code runs; returns what each step did."""
    libc = _libc()
    if libc is None:
        return {"all": "unsupported on " + sys.platform}
    done: dict[str, str] = {}
    done["parent_death_signal"] = "ok" if _prctl(libc, PR_SET_PDEATHSIG, signal.SIGKILL) else "failed"
    if os.getppid() == 1:  # the parent died before the line above: do not outlive it
        os._exit(1)
    done["non_dumpable"] = "ok" if _prctl(libc, PR_SET_DUMPABLE, 0) else "failed"
    _prctl(libc, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    try:
        with open("/proc/sys/kernel/cap_last_cap") as f:
            last = int(f.read())
    except (OSError, ValueError):
        last = 63
    for cap in range(last + 1):  # needs CAP_SETPCAP, which is dropped below: first the bounding set
        _prctl(libc, PR_CAPBSET_DROP, cap)
    header = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    ok = libc.capset(ctypes.byref(header), data) == 0
    done["capabilities"] = "dropped" if ok and effective_capabilities() == 0 else "failed"
    done["no_new_privs"] = "ok" if _prctl(libc, PR_SET_NO_NEW_PRIVS, 1) else "failed"
    return done
