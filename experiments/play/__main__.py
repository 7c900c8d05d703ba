"""`python -m experiments.play duet --partner random --partner-guesser random --seed 3`: the same program
as `cnlab play` (docs/play.md), bad input included (one line on stderr, exit 2)."""

import sys

from experiments.cli import app

if __name__ == "__main__":
    app(["play", *sys.argv[1:]], prog_name="cnlab")
