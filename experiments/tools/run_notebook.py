"""Run an analysis notebook top to bottom and save it with its outputs (tables and inline figures).

    CNLAB_RESULTS=runs/bench CNLAB_TOURNAMENT=runs/tour \
        .venv/bin/python -m experiments.tools.run_notebook notebooks/duet_benchmark.ipynb
    CNLAB_CROSSPLAY=runs/crossplay .venv/bin/python -m experiments.tools.run_notebook notebooks/partner_robustness.ipynb

It uses only what the `notebook` extra installs (nbclient, nbformat, ipykernel, matplotlib): no
Jupyter server or nbconvert. The kernel runs in the current folder, so relative paths in the
`CNLAB_*` variables resolve as typed. The executed notebook goes to `runs/notebooks/NAME.ipynb`
(`--out FILE` to choose); the notebooks also save their figures as PNG files next to the results
they read. Exit 0 when every cell ran; 1 when a cell failed (the notebook is saved up to there and
the error named); 2 when the notebook cannot be read, the kernel is unknown or `--out` is a folder or
cannot be written (each checked before any cell runs).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def run_notebook(path: Path | str, out: Path | str | None = None, timeout: int = 600,
                 kernel: str = "python3", cwd: Path | str | None = None) -> Path:
    """Execute the notebook at `path` in `cwd` (default: the current folder) and write it, with its
    outputs, to `out` (default `runs/notebooks/NAME.ipynb` under `cwd`); returns where. A failing
    cell raises nbclient's CellExecutionError after the notebook so far is written."""
    import nbformat
    from nbclient import NotebookClient

    path = Path(path)
    cwd = Path(cwd) if cwd is not None else Path.cwd()
    nb = nbformat.read(path, as_version=4)
    target = Path(out) if out is not None else cwd / "runs" / "notebooks" / path.name
    client = NotebookClient(nb, timeout=timeout, kernel_name=kernel, resources={"metadata": {"path": str(cwd)}})
    try:
        client.execute()
    finally:
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, target)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m experiments.tools.run_notebook",
                                     description="Run a notebook top to bottom and save it with its outputs.")
    parser.add_argument("notebook", type=Path, help="the .ipynb file, e.g. notebooks/duet_benchmark.ipynb")
    parser.add_argument("--out", type=Path, default=None,
                        help="where the executed notebook goes (default runs/notebooks/NAME.ipynb)")
    parser.add_argument("--timeout", type=int, default=600, help="seconds a cell may take (default 600)")
    parser.add_argument("--kernel", default="python3", help="the Jupyter kernel (default python3)")
    args = parser.parse_args(argv)
    if not args.notebook.is_file():
        print(f"error: no notebook at {args.notebook}", file=sys.stderr)
        return 2
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
    from nbclient.exceptions import CellExecutionError
    from nbformat.reader import NotJSONError

    try:  # checked first: JSON that is no notebook ({}, a list) or bytes that are no UTF-8 raised from deep in nbformat
        nbformat.read(args.notebook, as_version=4)
    except NotJSONError as exc:
        print(f"error: {args.notebook} is not a notebook: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - whatever nbformat makes of a file that is not a notebook
        why = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
        print(f"error: {args.notebook} is not a notebook ({type(exc).__name__}: {why})", file=sys.stderr)
        return 2

    target = args.out or Path("runs") / "notebooks" / args.notebook.name
    if target.is_dir():  # checked first: the notebook would run, then fail to be written
        print(f"error: --out {target} is a folder; name the .ipynb file to write", file=sys.stderr)
        return 2
    try:  # checked first: a place the executed notebook cannot go failed with a traceback after the whole run
        existed = target.exists()
        target.parent.mkdir(parents=True, exist_ok=True)
        open(target, "a", encoding="utf-8").close()
        if not existed:
            target.unlink()
    except OSError as exc:
        print(f"error: cannot write --out {target}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    try:  # checked first: nbclient would write the unexecuted notebook over the target, then fail
        KernelSpecManager().get_kernel_spec(args.kernel)
    except NoSuchKernel:
        known = ", ".join(sorted(KernelSpecManager().find_kernel_specs()))
        print(f"error: no Jupyter kernel named {args.kernel!r} (installed: {known})", file=sys.stderr)
        return 2
    try:
        run_notebook(args.notebook, target, timeout=args.timeout, kernel=args.kernel)
    except NotJSONError as exc:
        print(f"error: {args.notebook} is not a notebook: {exc}", file=sys.stderr)
        return 2
    except CellExecutionError as exc:
        name = getattr(exc, "ename", type(exc).__name__)
        value = getattr(exc, "evalue", "")
        print(f"error: a cell of {args.notebook} failed: {name}: {value} (outputs so far in {target})",
              file=sys.stderr)
        return 1
    print(f"executed {args.notebook} -> {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
