"""The default Duet pair, in a module that imports nothing: the command line's help reads it.

The spymaster is the most partner-robust of the leave-one-out partner panel (docs/agents.md,
`cnlab crossplay`) on models that cover the board language, with the guesser that reads the
default model; minilm reads the shipped table of its vectors for the toolkit's words
(`data/vectors/minilm.npz`), so no torch loads. glove-50 and minilm are English only, so Korean
boards use e5-small instead, with `expected`'s game-state values and the surer consensus (`ztemp`
0.4): self-play 97.5%, against 92.5% with robust's bolder values and 94.3% with its `ztemp` 0.6,
which buy nothing in Korean, where cross-model play is near zero either way.
"""

DEFAULT_SPYMASTERS = {"en": "robust:use-m3+glove-50+minilm",
                      "ko": "robust:use-m3+e5-small?vocab=20000&pace=2&sudden=0.45&ztemp=0.4"}
DEFAULT_GUESSER = "duet-bayes:use-m3"
