"""The default Duet pair, in a module that imports nothing: the command line's help reads it.

The spymaster is the most partner-robust of the leave-one-out partner panel (docs/agents.md,
`cnlab crossplay`) on models that cover the board language, with the guesser that reads the
default model; minilm reads the shipped table of its vectors for the toolkit's words
(`data/vectors/minilm.npz`), so no torch loads. glove-50 and minilm are English only, so Korean
boards use e5-small instead, with `expected`'s game-state values, the surer consensus (`ztemp`
0.4), the sharper single-model hypotheses (`selftemp` 0.25) and untempered evidence about the
partner (`learn` 1: 98.5% with 0.25). Robust's English settings buy
nothing in Korean, where cross-model play is near zero either way, and cost self-play: 94.75%
with `selftemp` 0.4 against 100% (400 deals); earlier, 94.3% with `ztemp` 0.6 and 92.5% with the
bolder game-state values, against 97.5%. The pair reads no syllables (`form` 0, `robust`'s default
too): the reader of shared syllables lifts Korean leave-one-out from 2.7% to 6.7% by clues chosen for
the letters they share with their targets (RULES 4.1), and takes the pair's self-play from 99.5% to
95.25%.

In English the pair believes its partner's guesses a little more than `robust`'s class default
(`learn` 0.5 against 0.25): with a partner on use-m3 its self-play would otherwise sit at 97% (97.25,
97.25 and 96.75% on seeds 0-2, 98.25, 98.5 and 97.5% with 0.5), for about a point less with
partners on models it does not read (docs/agents.md).

The guesser reads clues with the same three models (`combine=bayes`: in each model's own units,
weighed by how well each explains its guesses so far): with a spymaster on a model it does not
read it is followed far more often than a guesser on use-m3 alone (`robust:mpnet` 40.75% of 400
deals against 17.75%, `robust:e5-small` 21.5% against 21.5%, `robust:e5-small+mpnet` 59.25% against
37.75%; both guessers recall unresolved earlier clues, `recall`, guess on past the number on the
last clue they receive, `last`, and on any other while a green is worth the risk, `beyond`), and the
pair's self-play rises to 99.5% (98.25%). Korean boards
keep `duet-bayes:use-m3`.
"""

DEFAULT_SPYMASTERS = {"en": "robust:use-m3+glove-50+minilm?learn=0.5",
                      "ko": "robust:use-m3+e5-small?vocab=20000&pace=2&sudden=0.45&ztemp=0.4&selftemp=0.25&learn=1&form=0"}
DEFAULT_GUESSERS = {"en": "duet-bayes:use-m3+glove-50+minilm", "ko": "duet-bayes:use-m3"}
#: `cnlab simulate codenames` (every variant, both languages) plays these unless told otherwise.
CODENAMES_SPYMASTER = "margin:use-m3"
CODENAMES_GUESSER = "nearest:use-m3"

#: The bot's guesser where a person gives the clues (`cnlab play`, the web pages): in English the
#: human-data guesser, which reads people's clues best (first guess held out 0.694, against 0.624 for
#: the default guesser, 0.613 for `duet-bayes:use-m3` and 0.581 for `nearest:use-m3`: `cnlab
#: eval-human`) and reads a spymaster on other models as well as the default guesser does; it is
#: slower, so bot-only runs keep `DEFAULT_GUESSERS`. Korean has no human data; Pictures' cards are
#: descriptions, not words.
PERSON_CLUES_GUESSERS = {("duet", "en"): "human", ("codenames", "en"): "human"}


def guesser_for_people(game: str, lang: str) -> str:
    """The bot guesser that reads a person's clues in `game` on a `lang` board."""
    return PERSON_CLUES_GUESSERS.get((game, lang), DEFAULT_GUESSERS[lang] if game == "duet" else "nearest:use-m3")
