"""One step of a differential test: the same action given to a reference model and to the engine
(cn_diff_driver, duet_diff_driver, sw_diff_driver). The first difference is one line."""

from __future__ import annotations

import copy
from typing import Any, Callable

from engine.errors import IllegalAction


def snapshot(state: Any) -> dict:
    """A deep copy of a state's public fields, to tell whether a refused action changed it."""
    return copy.deepcopy({k: v for k, v in vars(state).items() if not k.startswith("_")})


def step_both(name: str, step: int, a: tuple, model: Any, state: Any, *, model_illegal: type, to_engine: Callable,
              trail: list, done: list, refusal_problem: Callable | None = None,
              rule_pairs: dict | None = None, model_snapshot: Callable | None = None, shown: int = 8) -> str | None:
    """Apply `a` to both; a difference as one line (the model and the engine disagree on whether it
    is legal, the engine changes its state while refusing it, `refusal_problem(error)` finds fault
    with the refusal's text, the engine crashes), or None. Accepted actions go into `done` (the
    engine's form, for the replay), every action into `trail`; `rule_pairs` counts the pairs of
    rules the model and the engine cite for one refusal."""
    before_model = model_snapshot(model) if model_snapshot else None
    try:
        model.apply(a)
        m_ok, m_err = True, None
    except model_illegal as e:
        m_ok, m_err = False, e
        if model_snapshot and model_snapshot(model) != before_model:
            return f"{name} step {step}: MODEL changed on refusal {a}"
    before = snapshot(state)
    try:
        state.apply(to_engine(a))
        e_ok, e_err = True, None
    except IllegalAction as e:
        e_ok, e_err = False, e
        if snapshot(state) != before:
            return f"{name} step {step}: {a} refused but the state changed"
        problem = refusal_problem(e) if refusal_problem else None
        if problem:
            return f"{name} step {step}: {a} refused {problem}: {e}"
        if rule_pairs is not None and m_err is not None and m_err.rule not in ("?", e.rule):
            rule_pairs[(m_err.rule, e.rule)] = rule_pairs.get((m_err.rule, e.rule), 0) + 1
    except Exception as e:  # noqa: BLE001 - a crash is a difference too
        return f"{name} step {step}: engine crashed on {a}: {e!r}; trail {trail[-shown:]}"
    trail.append((a, e_ok))
    if e_ok:
        done.append(to_engine(a))
    if m_ok != e_ok:
        return (f"{name} step {step}: {a} model {'ok' if m_ok else m_err} "
                f"engine {'ok' if e_ok else e_err}; trail {trail[-shown:]}")
    return None


def run_setups(play: Callable, setups: list, modes: tuple, games: int, first_seed: int = 0,
               lang: str | None = None) -> list[str]:
    """`play(seed, *setup, mode, lang)` for `games` games of every setup under every clue mode (the
    Codenames and Duet drivers): the first difference of each game that has one."""
    diffs = []
    for g in range(games):
        for j, setup in enumerate(setups):
            for mode in modes:
                d = play(first_seed + g * 1000 + j * 10 + modes.index(mode), *setup, mode, lang)
                if d:
                    diffs.append(d)
    return diffs


def report(run: Callable, per_run: int, rule_pairs: dict, argv: list[str]) -> None:
    """A driver run by hand: `python DRIVER.py N [SEED [LANG]]` prints each difference of N games per
    setup and mode, the pairs of rules the model and the engine cited, and the count."""
    n = int(argv[1]) if len(argv) > 1 else 20
    out = run(n, int(argv[2]) if len(argv) > 2 else 0, argv[3] if len(argv) > 3 else None)
    for d in out:
        print(d)
    print("model rule -> engine rule", rule_pairs)
    print(len(out), "differences in", n * per_run, "games")
