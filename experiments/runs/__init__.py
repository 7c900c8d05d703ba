"""The game-neutral run machinery every simulator uses: the results folder (resume, lock, repair),
local workers and Ray, the resume key, statistics and the seeds that reveal nothing of a deal."""

from experiments.runs.execute import (check_run_backend, collect, game_results, local_results, run_resumable,
                                     save_outputs)
from experiments.runs.folder import RunDirectory, RunFolderError
from experiments.runs.stats import check_games_and_language, package_versions, run_fingerprint, wilson_interval

#: The clue referee (a config's `invalid_clue`) every simulated game plays under: the rules judge
#: every agent's clue (RULES 4), ours or a third party's; an illegal one is the agent's error (one
#: line, exit 2), a forfeit under --isolate, never a clue the game quietly plays on.
REFEREE = "reject"

__all__ = ["REFEREE", "RunDirectory", "RunFolderError", "check_games_and_language", "check_run_backend", "collect",
           "game_results", "local_results", "package_versions", "run_fingerprint", "run_resumable", "save_outputs",
           "wilson_interval"]
