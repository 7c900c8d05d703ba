"""English morphology for the clue filter (RULES 4.3/4.4/4.7), on lemminflect (+ wordfreq).

Same word: the word and its lemmas (RAINS -> rain, MICE -> mouse). Parts: the words of a
multi-word entry (ICE CREAM), the two halves of a closed compound when both are common words of
three letters or more (RAINCOAT = rain + coat, RAINDROP = rain + drop), and the base of a
derivation by a common suffix when the derived word is rarer than its base (RAINY = rain + y).
CATEGORY is not cat + egory (no such word), WANT is not w + ant (too short).

Derivations (RULES 4.3/4.4, second pass): a suffix of `DERIVATIONS` (-ese, -ment, -ry, -ness, -er,
-ian, -ish, -ic, -al, -ity, -ize, ...) or a prefix of `PREFIXES` (un-, re-, pre-, en-, ...) taken off
with the regular spelling changes (doubled consonant, dropped e, y -> i, a dropped final vowel
before -ian/-an/-ese), guarded so that accidental letters are not a base: the base must be a
common word the lemmatiser knows with a part of speech the affix attaches to (-ment takes verbs,
-ness adjectives, -ic nouns ...; PIGMENT is not PIG + ment), or a common proper noun (VIETNAM),
of the affix's minimum length; a prefixed word must be rarer than its base (REPORT is not re +
PORT). Possessives (king's, kings', witch's) are forms of the word. A compound half must be a
word the lemmatiser knows (LINING is not lin + ing); a verb particle (in, up, out) may close a
compound after a base of four letters or more (PLUGIN = plug + in).

Third pass: a compound cut must keep the sounds of its parts where the pronunciation table knows
them (engine/clues/pronunciation.py: CARROT is not car + rot); irregular derivations come from
data/clues/en_derivations.tsv (SPANISH <- SPAIN); `MORE_DERIVATIONS` adds -ion, -ation, -or and the
-en verbs (ACTION, PLANTATION, ACTOR, DARKEN), each with its guard (not MISSION, TAILOR, MANOR).
Fourth pass: `REWRITES`, derivations that rewrite the end of their base (EXPLOSION <- explode,
SOLUTION <- solve, APPEARANCE <- appear, ACTRESS <- actor), each with a minimum length and guard.
A one-syllable base with one short vowel doubles its last consonant before a vowel suffix
(`needs_doubling`), so it is never read undoubled: SCARY is scare + y, not scar + y; FINISH is no fin.
"""

from __future__ import annotations

import math
import os
import re

from engine.clues.abbreviations import table as initialisms
from engine.clues.pronunciation import sound_split, unstressed_age, unstressed_side
from engine.clues.store import InfoStore, Lookup, StoredForeign, analyser_fingerprint
from engine.clues.tables import normalize, tables
from engine.clues.types import FilterUnavailable
from engine.clues.wordinfo import WordInfo

#: A compound half must be at least this common (wordfreq frequency; zipf 3.0).
PART_MIN = 1e-6
#: A word at least this common counts as a real word (zipf 2.0).
REAL_MIN = 1e-7
MIN_PART_LEN = 3
#: another language's word (RULES 4.6): at least this common there, and this much above English.
FOREIGN_LANGUAGES = ("fr", "es", "de", "it", "pt")
FOREIGN_MIN = 3.0
FOREIGN_GAP = 1.5
ROMANIZED_GAP = 2.0   # Korean in Latin letters: a wider gap, as short spellings meet English names
SUFFIXES = ("y", "ly", "ish", "less", "ful", "ness", "er", "ers", "ing", "ings", "ed", "like", "s", "es")
#: Word breaks: spaces, hyphens and the middle dot that joins words (눈·사람, 남·북: RULES 4.7).
SPLIT = re.compile(r"[\s\-\u00b7\u2027\u30fb\uff65]+")

N, V, A = "NOUN", "VERB", "ADJ"
#: suffix -> (minimum base length, parts of speech of the base the suffix attaches to).
DERIVATIONS = {
    "ese": (4, (N, "PROPN")), "ian": (4, (N, "PROPN")), "an": (4, ("PROPN",)),
    "ment": (3, (V,)), "ry": (4, (N,)), "ery": (4, (N, V)), "ness": (3, (A,)),
    "er": (4, (V,)), "ers": (4, (V,)), "ish": (3, (N,)), "ic": (4, (N,)), "ical": (4, (N,)),
    "al": (4, (N,)), "ity": (4, (A,)), "ize": (4, (A, N)), "ise": (4, (A, N)),
    "less": (3, (N, V)), "ful": (3, (N, V)), "hood": (3, (N,)), "dom": (3, (N,)),
    "ship": (3, (N,)), "ism": (4, (N, A, "PROPN")), "ist": (3, (N, "PROPN")), "ess": (4, (N,)),
    "en": (4, (N,)), "y": (4, (N,)), "able": (4, (V,)), "ly": (4, (A, N)), "ous": (4, (N,)),
    "i": (4, ("PROPN",)),  # ISRAELI, PAKISTANI, BENGALI, SOMALI (somalia)
}
#: suffix -> the shortest base whose final a, o or y it drops: names and their people (CUBA -> CUBAN,
#: CHINA -> CHINESE, PIANO -> PIANIST) and the Latinate suffixes after longer words (HISTORY ->
#: HISTORIC, VOLCANO -> VOLCANIC, ORCHESTRA -> ORCHESTRAL, MEMORY -> MEMORIZE; not LOGIC = logo + ic,
#: TIDAL = tidy + al). Other suffixes keep the vowel: GREEN is no grey + en, READER no ready + er.
VOWEL_DROPPING = {"ian": 4, "an": 4, "ese": 4, "i": 4, "ism": 4, "ist": 4,
                  "ic": 5, "ical": 5, "al": 5, "ous": 5, "ize": 5, "ise": 5}
#: the derived word's part of speech, where the lemmatiser knows it (golden ADJ; LISTEN is a verb).
#: -al on a noun makes an adjective (NATIONAL, COASTAL; nouns on a verb, ARRIVAL, are `REWRITES`), so a
#: word the lemmatiser knows only as a noun is no noun + -al (SANDAL is not sand + al, PORTAL not port).
DERIVED_POS = {"en": (A,), "y": (A,), "ic": (A, N), "al": (A,), "ly": (A, "ADV"), "er": (N,), "ers": (N,)}
AGENT = ("er", "ers", "or", "ors")
#: suffixes that also make words of names the lemmatiser does not know (MARXISM, DARWINIST)
NAME_SUFFIXES = ("ism", "ist")
_CVC = re.compile(r"^y?[^aeiouy]*[aeiou][^aeiouwxy]$")  # y after the first letter is a vowel (LYRIC)


def needs_doubling(base: str, suffix: str) -> bool:
    """English spelling doubles the last consonant of a one-syllable word with one short vowel
    before a suffix that begins with a vowel sound (SCAR + Y = SCARRY, SHIN + Y = SHINNY), so such
    a base cannot be read undoubled out of a word: SCARY is not scar + y, SHINING not shin + ing."""
    return suffix[:1] in ("a", "e", "i", "o", "u", "y") and bool(_CVC.match(base))


def _ion_stem(stem: str, base: str) -> bool:
    """-ion after a verb in -ct / -pt (ACTION, ELECTION, ADOPTION) or an -ate verb of six letters or
    more (CREATION, LOCATION; not STATION = state + ion, RATION = rate + ion)."""
    return stem.endswith(("ct", "pt")) or (base.endswith("ate") and len(base) >= 6)


def _or_stem(stem: str, base: str) -> bool:
    """-or after a verb of four letters or more, or one in -ct (ACT + or; not MANOR = man + or)."""
    return len(base) >= 4 or stem.endswith("ct")


def _whole_stem(stem: str, base: str) -> bool:
    """-ade after the whole base (LEMON + ade): not TIRADE = tire, FACADE = face, COLONNADE = colon."""
    return base == stem


#: More derivations (third pass): (suffix, minimum base length, base parts of speech, derived parts
#: of speech or None, a check of stem and base or None).
MORE_DERIVATIONS = (
    ("ion", 3, (V,), (N,), _ion_stem), ("ions", 3, (V,), (N,), _ion_stem),
    ("ation", 4, (V,), (N,), None), ("ations", 4, (V,), (N,), None),
    ("or", 3, (V,), None, _or_stem), ("ors", 3, (V,), None, _or_stem),  # ACTOR, SAILOR (not TAILOR, MANOR)
    ("en", 3, (A,), (V,), None),  # DARKEN, SOFTEN, REDDEN: verbs from adjectives
    ("ade", 4, (N,), (N,), _whole_stem),  # LEMONADE, LIMEADE, ORANGEADE, BLOCKADE, CANNONADE
    ("ty", 4, (A,), (N,), _whole_stem),  # LOYALTY, SAFETY, CRUELTY, CERTAINTY (not FORTY = fore, VERITY = very)
)


def _not_after_t(an, w: str, stem: str) -> bool:
    """-ure and -tress after t are mostly no suffix: POSTURE, VENTURE, STATURE, BUTTRESS, MATTRESS
    hold no post, vent, state, butter, matter."""
    return not stem.endswith("t")


def _noun_only(an, w: str, stem: str) -> bool:
    """A noun the lemmatiser knows as nothing else (ARRIVAL, DENIAL; not FINAL = fine + al, TOTAL = tote)."""
    return an.pos(w) <= {N}


def _known_noun(an, w: str, stem: str) -> bool:
    """A noun the lemmatiser knows as nothing else: -ee nouns (EMPLOYEE, TRAINEE); not names it
    does not know (YANKEE, AIMEE, PAWNEE) nor REFEREE, a verb too."""
    return an.pos(w) == {N}


def _ling(an, w: str, stem: str) -> bool:
    """-ling makes nouns (DUCKLING, SEEDLING); FEELING and BOWLING are feel + ing and bowl + ing."""
    return an.pos(w) <= {N} and not an._common(w[:-3])


#: Germanic suffixes a closed compound takes whole (SPORTSMAN-SHIP, FOOTBALL-ER, NEWSPAPER-MAN).
COMPOUND_SUFFIXES = ("ship", "ships", "er", "ers", "man", "men", "like", "ly", "ness", "ish", "hood", "dom")


def parts_before_suffix(w: str, parts) -> list[str]:
    """The parts of `w` that are all of it but a suffix of `COMPOUND_SUFFIXES` (SPORTSMANSHIP:
    sportsman; FOOTBALLER: football; NEWSPAPERMAN: newspaper), doubled consonant or dropped e allowed."""
    out = []
    for p in parts:
        for suf in COMPOUND_SUFFIXES:
            if w.endswith(suf) and w[: -len(suf)] in (p, p + p[-1:], p[:-1] if p.endswith("e") else p):
                out.append(p)
                break
    return out


def _no_ery_homophone(an, w: str, stem: str) -> bool:
    """-ary in a word without a homophone in -ery: STATIONARY (fixed) is no station + ary beside
    STATIONERY (paper goods, which holds station), a word of its own (RULES 4.6)."""
    return not an._common(stem + "ery")


def _adverb_only(an, w: str, stem: str) -> bool:
    """-ly after an adjective in -le makes adverbs only (SIMPLY, GENTLY); SUPPLY and MULTIPLY, verbs
    too, are no supple + ly, multiple + ly. (ABLY is left out by the base length: as a right part,
    COMFORTABLY = comfort + ably, it would bring able, a bound suffix there.)"""
    return an.pos(w) <= {"ADV"}


#: Derivations that rewrite the end of their base (fourth pass; the Latinate verb-to-noun suffixes,
#: -ify, -ance, -eer, -ette, -ician, -acy, -tress): (the word's ending, the base's ending, the base's
#: minimum length and parts of speech, the derived word's parts of speech where the lemmatiser knows
#: it, a guard (analyser, word, stem) or None). Checked over the vocabulary for accidental bases
#: (docs/clue_filter.md): the lengths keep out TENSION = tend, VERSION = verse, POSITION = pose,
#: PASSION = pass, COMPASSION = compass, CAREER = care.
REWRITES = (
    ("sion", "de", 4, (V,), (N,), None),          # EXPLOSION, DECISION, INVASION, PROVISION
    ("sion", "d", 5, (V,), (N,), None),           # EXTENSION, EXPANSION, SUSPENSION
    ("sion", "se", 6, (V,), (N,), None),          # CONFUSION, REVISION, SUPERVISION
    ("rsion", "rt", 5, (V,), (N,), None),         # CONVERSION, DIVERSION, AVERSION
    ("mission", "mit", 4, (V,), (N,), None),      # PERMISSION, ADMISSION, EMISSION
    ("ssion", "de", 5, (V,), (N,), None),         # CONCESSION
    ("ession", "ess", 6, (V,), (N,), None),       # CONFESSION, EXPRESSION, POSSESSION
    ("ussion", "uss", 6, (V,), (N,), None),       # DISCUSSION
    ("ption", "be", 5, (V,), (N,), None),         # DESCRIPTION, PRESCRIPTION
    ("ption", "ive", 5, (V,), (N,), None),        # RECEPTION, PERCEPTION
    ("mption", "me", 5, (V,), (N,), None),        # CONSUMPTION, ASSUMPTION
    ("rption", "rb", 5, (V,), (N,), None),        # ABSORPTION
    ("uction", "uce", 5, (V,), (N,), None),       # PRODUCTION, REDUCTION, INTRODUCTION
    ("truction", "troy", 5, (V,), (N,), None),    # DESTRUCTION
    ("ention", "ene", 6, (V,), (N,), None),       # INTERVENTION, CONVENTION
    ("lution", "lve", 5, (V,), (N,), None),       # SOLUTION, EVOLUTION, RESOLUTION
    ("osition", "ose", 6, (V,), (N,), None),      # COMPOSITION, OPPOSITION
    ("anation", "ain", 5, (V,), (N,), None),      # EXPLANATION
    ("amation", "aim", 5, (V,), (N,), None),      # PROCLAMATION, EXCLAMATION
    ("unciation", "ounce", 5, (V,), (N,), None),  # PRONUNCIATION
    ("ification", "ify", 5, (V,), (N,), None),    # CLASSIFICATION, PURIFICATION
    ("ify", "", 5, (N, A), (V,), None),           # CLASSIFY, SOLIDIFY, PERSONIFY
    ("ify", "e", 5, (N, A), (V,), None),          # SIMPLIFY, FALSIFY, INTENSIFY
    ("ify", "y", 5, (N,), (V,), None),            # BEAUTIFY, GLORIFY
    ("ance", "", 5, (V,), (N,), None),            # APPEARANCE, ASSISTANCE, PERFORMANCE
    ("ance", "e", 5, (V,), (N,), None),           # GUIDANCE, INSURANCE, ENDURANCE
    ("ence", "", 5, (V,), (N,), None),            # EXISTENCE, DIFFERENCE, DEPENDENCE
    ("ence", "e", 5, (V,), (N,), None),           # INTERFERENCE, RESIDENCE, EMERGENCE
    ("iance", "y", 4, (V,), (N,), None),          # RELIANCE, COMPLIANCE, ALLIANCE
    ("ure", "", 4, (V,), (N,), _not_after_t),     # FAILURE, PRESSURE
    ("ure", "e", 4, (V,), (N,), _not_after_t),    # PLEASURE, CLOSURE, EXPOSURE, SEIZURE
    ("al", "e", 5, (V,), (N,), _noun_only),       # ARRIVAL, SURVIVAL, APPROVAL, REFUSAL
    ("wal", "w", 4, (V,), (N,), _noun_only),      # RENEWAL, WITHDRAWAL
    ("yal", "y", 4, (V,), (N,), _noun_only),      # BETRAYAL, PORTRAYAL
    ("ssal", "ss", 5, (V,), (N,), _noun_only),    # DISMISSAL
    ("ial", "y", 3, (V,), (N,), _noun_only),      # DENIAL, BURIAL
    ("eer", "", 4, (N,), (N,), None),             # MOUNTAINEER, AUCTIONEER, PUPPETEER
    ("eer", "e", 5, (N,), (N,), None),            # ENGINEER
    ("ling", "", 3, (N, A), (N,), _ling),         # DUCKLING, SEEDLING, EARTHLING
    ("ette", "", 5, (N,), (N,), None),            # CIGARETTE, KITCHENETTE
    ("ette", "e", 5, (N,), (N,), None),           # STATUETTE
    ("ician", "ic", 4, (N, A), (N,), None),       # MUSICIAN, MAGICIAN, ELECTRICIAN
    ("ician", "ics", 4, (N,), (N,), None),        # PHYSICIAN, POLITICIAN, MATHEMATICIAN
    ("icist", "ics", 4, (N,), (N,), None),        # PHYSICIST, LYRICIST
    ("entist", "ence", 5, (N,), (N,), None),      # SCIENTIST (Latin -entia: -ent- before -ist, -ific)
    ("entific", "ence", 5, (N,), (A,), None),     # SCIENTIFIC
    ("acy", "ate", 6, (N, A), (N,), None),        # PIRACY, PRIVACY, ACCURACY
    ("acy", "at", 6, (N,), (N,), None),           # DEMOCRACY, DIPLOMACY
    ("tress", "tor", 4, (N,), (N,), _not_after_t),   # ACTRESS (not BUTTRESS, MATTRESS)
    ("tress", "ter", 5, (N,), (N,), _not_after_t),   # WAITRESS, HUNTRESS
    ("hten", "ht", 4, (N, A), (V,), None),        # HEIGHTEN, FRIGHTEN
    ("then", "th", 5, (N, A), (V,), None),        # LENGTHEN, STRENGTHEN
    ("ly", "le", 5, (A,), ("ADV",), _adverb_only),   # SIMPLY, GENTLY, HUMBLY, TERRIBLY, POSSIBLY
    ("ary", "", 4, (N,), (A, N), _no_ery_homophone),  # DOCUMENTARY, MISSIONARY, LEGENDARY (the whole base:
                                                     # not SALARY = sale, CANARY = cane, PRIMARY = prime)
    ("ee", "", 3, (V,), (N,), _known_noun),       # EMPLOYEE, TRAINEE, PAYEE, TRUSTEE, DETAINEE
    ("ee", "e", 4, (V,), (N,), _known_noun),      # ESCAPEE, RETIREE, DEVOTEE, FRANCHISEE (the e merged)
)
PREFIXES = ("un", "re", "pre", "en", "em", "dis", "mis", "non", "over", "under", "out", "sub", "super", "anti",
            "inter", "semi", "multi", "micro", "mini", "mid", "tele", "bi", "tri", "up", "on",
            "by", "mega", "giga", "nano")  # BYPASS, BYPRODUCT, MEGAPHONE, GIGABYTE, NANOSECOND
#: the regular endings of an inflection (RULES 4.4: an inflected word is cut like its lemma)
INFLECTIONS = ("s", "d", "ing", "er", "est", "n")
#: prefixes read only before a longer word: BICYCLE, TRIANGLE (not BISHOP = bi + shop, TRIDENT = tri + dent)
PREFIX_MIN_REST = {"bi": 5, "tri": 5}
#: the adverb particles among the prefixes (UPSTREAM, ONBOARD): not before a suffix (UPWARD, ONION)
PARTICLE_PREFIXES = ("up", "on")
#: en-/em- making a verb of a common noun is a derivation however common the verb (RULES 4.3: ENJOY
#: is en + joy, ENCOURAGE en + courage), where the lemmatiser reads the base only as a noun (zipf at
#: least this) and the word only as a verb; elsewhere a prefixed word must be rarer than its base.
EN_VERB_BASE_MIN = 4.0
#: Latin and Greek combining forms that are English words too: not the left part of a compound
#: whose right part is only a derivation (CONSUMMATION, PROPOSER, PANTHEISM, MONOPHONIC)
COMBINING_FORMS = ("con", "pro", "pan", "mono", "stereo")
#: Latin prefixes spelled like an English word (RULES 4.4: CATEGORY is not cat + egory): a cut after
#: one is a compound only where the word keeps a stressed vowel on each side in every pronunciation
#: (CONTENT, CONTEST, PROTEST, CONSOLE say con-TENT or CON-tent; SUBWAY says SUB-WAY). Not sub-,
#: super-, inter-, post-: English prefixes too (SUBCONSCIOUS, SUBURBAN say sub- unstressed).
LATIN_PREFIX_WORDS = ("con", "com", "pro", "per")
PARTICLES = ("in", "up", "out")
#: determiners and pronouns that begin the compound pronouns and adverbs (RULES 4.3/4.4: EVERYBODY,
#: EVERYDAY, NOTHING, NOWHERE, MYSELF, ITSELF hold body, day, thing, where, self, as SOMEBODY and
#: HIMSELF do): the lemmatiser tags none of them and three are shorter than a part, so the compound
#: cut missed them. every- before any common word; no-, my-, it- only before these heads (NOTABLE,
#: NOMAD, NOVICE, ITEM, MYTH are letters). The determiner is a weak part: it makes "contains" (EVERY
#: with EVERYDAY visible) but two such words do not share it (EVERYBODY with EVERYTHING stays legal).
DETERMINER_PARTS = {"every": None, "no": ("body", "thing", "where", "one"), "my": ("self",), "it": ("self",)}
#: the negative prefixes of adjectives, each before the letters it is spelled before (RULES 4.3:
#: IMPATIENT is im + patient, ILLEGAL il + legal, IRREGULAR ir + regular, INCORRECT in + correct):
#: read only where both the word and its base are adjectives and the word is the rarer (not INCOME,
#: INSIGHT, IMPORT, IMPRESS, whose bases are no adjectives, nor INTENSE, commoner than tense).
NEGATIVE_PREFIXES = (("im", "bmp"), ("il", "l"), ("ir", "r"), ("in", "acdefghjknoqstuvwxyz"))
#: suffixes spelled like an English word they do not mean (RULES 4.4: a bound affix does not block):
#: a compound cut whose right part is one of them keeps only its left part, so IMPORTANT holds no
#: ant, DEBATE and CANDIDATE no ate (nor eat), COMFORTABLE no able, CARELESS no less, CHAMPION no
#: ion, CHILDHOOD no hood. Not -ship, -man, -like, -wise, whose word also closes real compounds
#: (SPACESHIP, FIREMAN, STREETWISE) that the letters cannot tell from HARDSHIP or CLOCKWISE; -ship
#: is a suffix in the words data/clues/en_bound_heads.tsv lists (FRIENDSHIP, HARDSHIP).
BOUND_SUFFIXES = frozenset("ate ant ants ion ions ness ling lings dom hood ward wards some able less ism ally".split())
#: Old English place-name elements that end a closed proper noun after a common word (STONEHENGE =
#: stone + henge, GREENWICH); the standalone ones (land, wood, ford, field) are compound cuts already.
PLACE_ELEMENTS = ("henge", "chester", "caster", "cester", "borough", "burgh", "bury", "wick", "wich",
                  "thorpe", "stead", "minster", "shire")
#: RULES 4.6: British endings and their American spelling, one word in two spellings where the
#: lemmatiser knows the American one (ODOUR / odor, MONETISE / monetize, ODOURLESS, DIGITISATION),
#: for the words the variants table does not list. The stem before -our needs a vowel (not TOUR /
#: tor, FLOUR / flor), before -ise four letters (not PRISE / prize, REVISE, ADVISE).
BRITISH_ENDINGS = (("our", "or"), ("ours", "ors"), ("oured", "ored"), ("ouring", "oring"), ("ourite", "orite"),
                   ("ourites", "orites"), ("ourable", "orable"), ("ourless", "orless"), ("ourful", "orful"),
                   ("ourer", "orer"), ("ourers", "orers"), ("ise", "ize"), ("ises", "izes"), ("ised", "ized"),
                   ("ising", "izing"), ("isation", "ization"), ("isations", "izations"), ("iser", "izer"),
                   ("isers", "izers"))
APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
#: RULES 4.3: a contraction holds the words it joins (DON'T: do, not; WE'LL: we, will); the host
#: of an irregular n't (CAN'T, WON'T, SHAN'T) and the words the clitics stand for.
CONTRACTION_HOSTS = {"ca": "can", "wo": "will", "sha": "shall"}
CLITICS = {"n't": "not", "'ll": "will", "'ve": "have", "'re": "are", "'m": "am", "'d": ""}
LATIN_WORD = re.compile(r"^[^\W\d_]+(?:'[^\W\d_]+)?'?$")


#: RULES 4.3: the regular derivations of a number word (TENTH, TWENTIETH, SIXTEEN, SIXTY, TENFOLD):
#: (ending, what the cardinal ends with instead). Irregular ones (THIRD, FIFTH, EIGHTY, FORTY) are
#: rows of data/clues/en_derivations.tsv.
NUMBER_SUFFIXES = (("ieth", "y"), ("th", ""), ("teen", ""), ("ty", ""), ("fold", ""))


def number_bases(w: str, numbers) -> set[str]:
    """The number words `w` is built on by a number suffix (NUMBER_SUFFIXES), recursively:
    SIXTEENTH -> sixteen, six; NINETIETH -> ninety, nine. Only an exact number word of the numbers
    table is a base, so no other word ending in -th or -ty is cut."""
    out: set[str] = set()
    for end, instead in NUMBER_SUFFIXES:
        stem = w[: -len(end)] + instead
        if w.endswith(end) and stem != w and stem in numbers:
            out.add(stem)
            out |= number_bases(stem, numbers)
    return out


def _lemminflect_missing() -> None:
    from importlib.util import find_spec

    if find_spec("lemminflect") is None:  # pragma: no cover - depends on the installation
        raise FilterUnavailable(
            "the English clue filter needs lemminflect: pip install 'codenames-lab[filter]'"
        )


def _lemma_table() -> dict:
    """lemminflect's lemma look-up table with its overrides applied: word -> {upos: lemmas}, what
    `lemminflect.getAllLemmas` answers for a lower-case word (read once, then from `store`)."""
    from lemminflect import config
    from lemminflect.codecs.LemmaLUCodec import LemmaLUCodec
    from lemminflect.codecs.OverridesCodec import OverridesCodec

    table = LemmaLUCodec.load(config.lemma_lu_fn)
    for word, entry in OverridesCodec.load(config.lemma_overrides_fn).items():
        table[word] = {**table.get(word, {}), **entry}
    return {w: {pos: tuple(f.lower() for f in forms) for pos, forms in entry.items()} for w, entry in table.items()}


def _wordfreq(language: str, min_zipf: float | None = None) -> dict:
    try:
        from wordfreq import get_frequency_dict
    except ImportError:
        return {}
    try:
        table = get_frequency_dict(language)
    except Exception:  # pragma: no cover
        return {}
    if min_zipf is None:
        return dict(table)
    return {w: f for w, f in table.items() if f > 0 and math.log10(f * 1e9) >= min_zipf}


def _wordfreq_en() -> dict:
    return _wordfreq("en")


#: A batch of at least this many new words loads the whole word lists in memory (else row by row).
PRELOAD = 64


class EnglishAnalyzer(StoredForeign):
    language = "en"

    def __init__(self, accidental_cuts: bool = True, unheard_bases: bool = True) -> None:
        _lemminflect_missing()
        self.freq = Lookup("wordfreq-en", ("wordfreq",), _wordfreq_en)
        self._lemma_table = Lookup("lemminflect-lemmas", ("lemminflect",), _lemma_table, kind="marshal")
        self.tables = tables("en")
        #: compound cuts not by meaning (data/clues/en_accidental_cuts.tsv); off only for the tool
        #: that builds that table (experiments/tools/build_en_parts.py)
        self.accidental_cuts = (self.tables.accidental_cuts or {}) if accidental_cuts else {}
        #: parts by letters the word does not say (data/clues/en_unheard_bases.tsv); off only for
        #: the tool that builds that table (experiments/tools/build_en_bases.py)
        self.unheard_bases = (self.tables.unheard_bases or {}) if unheard_bases else {}
        self.store = InfoStore("en", analyser_fingerprint("en", ("lemminflect", "wordfreq")))
        self._info: dict[str, WordInfo] = {}
        self._new: list[WordInfo] = []
        self._depth = 0
        self._lemmas: dict[str, frozenset[str]] = {}
        self._read: dict[str, dict] = {}
        self._other_freq: dict[str, Lookup] = {}

    def _readings(self, w: str) -> dict:
        """lemminflect's readings of `w` (part of speech -> lemmas), as `getAllLemmas` gives them."""
        got = self._read.get(w)
        if got is None:
            got = self._read[w] = dict(self._lemma_table.get(w.lower(), {}))
        return got

    def lemmas(self, w: str) -> frozenset[str]:
        got = self._lemmas.get(w)
        if got is None:
            got = frozenset(lem.casefold() for tup in self._readings(w).values() for lem in tup)
            self._lemmas[w] = got
        return got

    def pos(self, w: str) -> frozenset[str]:
        return frozenset(self._readings(w))

    def _base_ok(self, b: str, min_len: int, tags) -> bool:
        """A derivation base: a common word of the right part of speech (or a common proper noun)."""
        if len(b) < min_len or not b.isalpha() or self._f(b) < PART_MIN:
            return False
        pos = self.pos(b)
        if not pos:
            return "PROPN" in tags and self.zipf(b) >= 3.5
        return bool(pos & set(tags))

    def _prefixed(self, w: str) -> set[str]:
        out = set()
        for pre in PREFIXES:
            rest = w[len(pre):]
            if (w.startswith(pre) and len(rest) >= PREFIX_MIN_REST.get(pre, 3) and self.pos(rest) and self._common(rest)
                    and not (pre in PARTICLE_PREFIXES and (rest in BOUND_SUFFIXES or not self.pos(w)))):
                # a particle only before a word (UPWARD is up + -ward) in a word the lemmatiser knows (UPTON)
                if (not self.freq or self._f(w) < self._f(rest) or self._en_verb(w, pre, rest)) and not self._unprefixed_lemma(w, pre):
                    out.add(rest)
        for pre, before in NEGATIVE_PREFIXES:
            rest = w[len(pre):]
            if (w.startswith(pre) and len(rest) >= 4 and rest[0] in before and A in self.pos(w)
                    and A in self.pos(rest) and self._common(rest) and (not self.freq or self._f(w) < self._f(rest))
                    and not self._unprefixed_lemma(w, pre)):
                out.add(rest)
        for lem in self.lemmas(w) - {w}:  # ENJOYED, ENJOYS: of enjoy, so of joy
            for pre in ("en", "em"):
                if lem.startswith(pre) and self._common(lem[len(pre):]) and self._en_verb(lem, pre, lem[len(pre):]):
                    out.add(lem[len(pre):])
        return out

    def _unprefixed_lemma(self, w: str, pre: str) -> bool:
        """Whether a regular inflection's lemma is not read with the prefix `pre` (RULES 4.4: an inflected
        word is cut like its lemma): RETIRED is no re + tired as RETIRE is no re + tire, INFORMED no in +
        formed, INTERRING (of the verb inter) no inter + ring. A lemma too short to be read so keeps the
        inflection's reading (UNDONE: un + done, of undo)."""
        for stem, lemma in self._inflected_stems(w):
            rest = lemma[len(pre):]
            if not w[len(stem):].endswith(INFLECTIONS):
                continue  # no inflection: DISTILL is no form of distil
            if lemma.startswith(pre) and (not rest or (len(rest) >= PREFIX_MIN_REST.get(pre, MIN_PART_LEN)
                                                       and rest not in self._prefixed(lemma))):
                return True
        return False

    def _en_verb(self, w: str, pre: str, rest: str) -> bool:
        """A verb made of a common noun by en-/em- (ENJOY, ENCOURAGE; not EMPLOY, whose ploy is rare)."""
        return (pre in ("en", "em") and self.pos(rest) == {N} and self.pos(w) == {V}
                and self.zipf(rest) >= EN_VERB_BASE_MIN)

    def derivation_bases(self, w: str, depth: int = 2) -> set[str]:
        """Words `w` is derived from by a suffix or prefix of the tables (see the module doc)."""
        out: set[str] = set()
        if depth <= 0 or not w.isalpha():
            return out
        derived_pos = self.pos(w)
        rules = [(suf, min_len, tags, DERIVED_POS.get(suf), None) for suf, (min_len, tags) in DERIVATIONS.items()]
        for suf, min_len, tags, want, stem_ok in rules + list(MORE_DERIVATIONS):
            vowel_variants = stem_ok is None and suf in VOWEL_DROPPING  # CANADIAN, HISTORIC: a final vowel dropped
            if not w.endswith(suf) or len(w) - len(suf) < 2:
                continue
            if want and derived_pos and not (derived_pos & set(want)):
                continue
            if suf in AGENT and V in derived_pos:
                continue  # an agent noun is not a verb: FLOWER, SHOWER are not flow + er, show + er
            stem = w[: -len(suf)]
            cands = {stem, stem + "e"}
            if stem.endswith("i"):
                cands.add(stem[:-1] + "y")
            if vowel_variants and len(stem) + 1 >= VOWEL_DROPPING[suf]:  # WAIST is not way + ist
                cands.update((stem + "a", stem + "y", stem + "o"))
            doubled = len(stem) >= 3 and stem[-1] == stem[-2] and stem[-1] not in "aeiousl"
            if doubled:
                cands.add(stem[:-1])
            for b in cands:
                if b == w or (stem_ok is not None and not stem_ok(stem, b)):
                    continue
                if b == stem and needs_doubling(b, suf):
                    continue
                if suf in NAME_SUFFIXES and not self.pos(b) and (len(b) < 4 or b not in (stem, stem + "a")):
                    continue  # a name whole (MARXIST, DARWINISM, BUDDHISM), not MOIST = moe, INSIST = ins
                short_ok = doubled and b == stem[:-1] and len(b) == 3
                if short_ok and suf in ("er", "ers") and self.freq and self.zipf(w) > self.zipf(b) - 1.0:
                    continue  # MANNER, LETTER: not man + er, let + er
                if short_ok and self.freq and self.zipf(w) >= self.zipf(b):
                    continue  # a derivation is rarer than its base: BATTERY is not bat + ery
                if self._base_ok(b, 3 if short_ok else min_len, tags):
                    out.add(b)
                elif len(b) >= min_len and self._prefixed(b):  # ENCAMPMENT = en + camp + ment
                    out.add(b)
        for end, base_end, min_len, tags, want, guard in REWRITES:
            stem = w[: -len(end)]
            if not w.endswith(end) or len(stem) < 2 or (want and derived_pos and not derived_pos & set(want)):
                continue
            b = stem + base_end
            inflected = self.lemmas(b) and b not in self.lemmas(b) and not b.endswith("ics")  # PROVEN, DIVERS
            if b != w and not inflected and (guard is None or guard(self, w, stem)) and self._base_ok(b, min_len, tags):
                out.add(b)
        out |= self._prefixed(w)
        out -= self._unheard(w)
        for b in list(out):
            out |= self.derivation_bases(b, depth - 1)
        return out

    def _word_of_its_own(self, p: str) -> bool:
        """A part that is a noun in its own right and no regular inflection (GROUND, ROSE, SAW, LEFT,
        REAL): its other lemmas (grind, rise, see, leave, rial) are other words, not what the whole is
        made of. A regular form (READING, SPORTS, MARRIED, KNOWN) still stands for its lemma."""
        return p in self._readings(p).get("NOUN", ()) and not p.endswith(("ing", "ed", "s", "wn", "en"))

    def _may_be_adjective(self, w: str) -> bool:
        """Whether the lemmatiser knows `w` as an adjective, or does not know it at all."""
        readings = self._readings(w)
        return not readings or "ADJ" in readings

    def _f(self, w: str) -> float:
        return self.freq.get(w, 0.0)

    def known(self, w: str) -> bool:
        if self.freq:
            return self._f(w) >= REAL_MIN or bool(self.lemmas(w))
        return bool(self.lemmas(w))

    def _common(self, w: str) -> bool:
        if len(w) < MIN_PART_LEN or not w.isalpha():
            return False
        if self.freq:
            return self._f(w) >= PART_MIN
        return bool(self.lemmas(w))

    def zipf(self, w: str) -> float:
        f = self._f(w)
        return math.log10(f * 1e9) if f > 0 else 0.0

    def info(self, word: str) -> WordInfo:
        return self.info_many([word])[0]

    def info_many(self, words) -> list[WordInfo]:
        norm = [normalize(raw, "en").translate(APOSTROPHES) for raw in words]
        if self._depth == 0:
            missing = [w for w in dict.fromkeys(norm) if w not in self._info]
            if missing:
                self._info.update(self.store.get_many(missing))
                if sum(w not in self._info for w in missing) >= PRELOAD:
                    self.freq.preload()
                    self._lemma_table.preload()
        self._depth += 1
        try:
            out = []
            for w in norm:
                info = self._info.get(w)
                if info is None:
                    info = self._build(w)
                    self._info[w] = info
                    self._new.append(info)
                out.append(info)
        finally:
            self._depth -= 1
        if self._depth == 0 and self._new:
            new, self._new = self._new, []
            self.store.put_many(new)
        return out

    def compound_cuts(self, w: str, check_sound: bool = True) -> list[tuple[str, str]]:
        """Cuts of a closed compound into two common words of three letters or more that the
        lemmatiser knows (RAINCOAT = rain + coat), kept only where the word sounds like its two
        parts when the pronunciation table knows all three (CARROT is not car + rot: see
        engine/clues/pronunciation.py)."""
        out = []
        if not w.isalpha():
            return out
        for i in range(MIN_PART_LEN, len(w) - MIN_PART_LEN + 1):
            left, right = w[:i], w[i:]
            if not self._common(left) or not (self.pos(left) or (
                    self._agent_noun(left) and not self.bound_suffix(w, right))):
                continue
            right_ok = (self._common(right) and bool(self.pos(right))) or any(
                self._common(r) for r in self.lemmas(right) if r != right
            ) or self._derived_head(w, left, right)
            if right_ok and (not check_sound or (
                    sound_split(w, left, right) is not False
                    and not (left in LATIN_PREFIX_WORDS and unstressed_side(w, left)))):
                out.append((left, right))
        for left, heads in DETERMINER_PARTS.items():  # EVERYBODY, NOTHING, MYSELF (the lemmatiser tags no every)
            right = w[len(left):]
            if w.startswith(left) and (right in heads if heads else self._common(right) and bool(self.pos(right))) and (
                    not check_sound or sound_split(w, left, right) is not False):
                out.append((left, right))
        out = [(l, r) for l, r in out if not self._borrowed_s(l, r)]
        inflected = self._inflected_stems(w)
        regular = {lemma for _, lemma in inflected}
        irregular = [(os.path.commonprefix([w, lemma]), lemma) for lemma in self.lemmas(w) - {w} - regular
                     if w not in self.lemmas(lemma)]
        for stem, lemma in inflected + irregular:  # PARKING is park + ing, not par + king;
            # an irregular form, inside the letters it shares with its lemma (MATRICES: matri of matrix)
            kept = {len(l) for l, _ in self.compound_cuts(lemma, check_sound)}
            out = [(l, r) for l, r in out if len(l) >= len(stem) or len(l) in kept
                   or any(l + b == lemma for b in self.lemmas(r) | {r})]   # OUTGOING: out + going, of outgo
        return out

    def _borrowed_s(self, left: str, right: str) -> bool:
        """Whether a cut's left part is a mere -s form that takes the s of a word the rest spells
        (LIPSTICK is lip + stick, not lips + tick; UPSTART up + start, not ups + tart; BOOKSTORE
        holds no tore): letters, not a part (RULES 4.4). A plural that is a noun of its own keeps its
        cut (SPORTSWEAR = sports + wear); a left part whose s begins no word keeps it (SALESMAN)."""
        stem = left[:-1]
        return (left.endswith("s") and stem in self.lemmas(left)
                and left not in self._readings(left).get(N, ())
                and self._common("s" + right) and bool(self.pos("s" + right)))

    def _inflected_stems(self, w: str) -> list[tuple[str, str]]:
        """(the letters of a lemma that `w` begins with, that lemma) for each lemma `w` inflects by
        adding letters (PARKING: park; SPACING: spac of space): a compound cut inside them must be a
        cut of the lemma itself (RAINCOATS keeps rain + coats), or its left part and the lemma of
        its right part make the lemma (OUTGOING = out + going, of outgo = out + go)."""
        out = []
        for lemma in self.lemmas(w) - {w}:
            stem = lemma if w.startswith(lemma) else lemma[:-1] if lemma.endswith("e") and w.startswith(lemma[:-1]) else ""
            if not stem and lemma.endswith("y") and w.startswith(lemma[:-1] + "i"):  # SUNNIER, BLOODIED: of sunny, bloody
                stem = lemma[:-1]
            if stem and len(stem) < len(w):
                out.append((stem, lemma))
        return out

    def _accidental(self, w: str, left: str) -> bool:
        """Whether the cut of `w` after `left` is listed as accidental (data/clues/en_accidental_cuts.tsv,
        built by experiments/tools/build_en_parts.py), for `w` or a lemma of it (CARPETS as CARPET)."""
        if not self.accidental_cuts:
            return False
        return any(left in self.accidental_cuts.get(f, ()) for f in {w} | self.lemmas(w))

    def _derived_head(self, w: str, left: str, right: str) -> bool:
        """A rarer right part derived from a common word (SKYSCRAPER = sky + scraper, from scrape;
        NEWCOMER, SUNBATHER, TEASPOONFUL), where the left part is not a bound prefix (CONGENIAL,
        DISENCHANT) and the whole is rarer than its left part, as compounds are (GIGANTIC and
        LITERACY are not gig + antic, lite + racy)."""
        if left in PREFIXES or left in COMBINING_FORMS or not (self.pos(right) or self._agent_noun(right)):
            return False
        if self.freq and self.zipf(w) > self.zipf(left) - 0.5:
            return False
        return any(self._common(b) for b in self.derivation_bases(right, 1))

    def _agent_noun(self, p: str) -> bool:
        """A common -er noun the lemmatiser does not list, made from a common noun or verb (FISHER from
        fish, GIVER from give): a part of FISHERMAN, KINGFISHER, CAREGIVER like any listed word."""
        return (p.endswith(("er", "ers")) and self._common(p) and not self.pos(p)
                and any(self._common(b) and self.pos(b) & {N, V} for b in self.derivation_bases(p, 1)))

    def _suffix_bases(self, w: str) -> set[str]:
        """Bases of `w` by a suffix of `SUFFIXES` (SUNNY -> sun, HAPPINESS -> happy), the base
        commoner than the word."""
        out: set[str] = set()
        fw = self._f(w)
        for suf in SUFFIXES:
            if not w.endswith(suf):
                continue
            if suf == "y" and not self._may_be_adjective(w):
                continue  # -y derives adjectives (sunny, rainy); a noun such as penny is not pen + y
            if suf in AGENT and V in self.pos(w):
                continue  # an agent noun is not a verb (shower is not show + er)
            own_noun = suf in ("ed", "ing", "ings") and w in self._readings(w).get(N, ())
            stem = w[: -len(suf)]
            bases = {stem, stem + "e"}
            if len(stem) >= 2 and stem[-1] == stem[-2]:
                bases.add(stem[:-1])  # sunny -> sun
            if stem.endswith("i"):
                bases.add(stem[:-1] + "y")  # happiness -> happy
            for b in bases:
                if b == stem and needs_doubling(b, suf):
                    continue
                if own_noun and b == stem + "e" and (not self.pos(b) & {N, V, A} or not self._inflects(b, w)):
                    continue  # a noun of its own, no inflection of an e-restored base: SEED is no see + ed,
                    # THING no the + ing (PARENTING, TUBING, WHALING stay forms of their bases)
                if b != w and self._common(b) and (not self.freq or fw < self._f(b)):
                    out.add(b)
        return out

    @staticmethod
    def _inflects(verb: str, w: str) -> bool:
        """Whether `w` is an inflection of `verb`, or the lemmatiser lists no inflections of it as a verb."""
        from lemminflect import getAllInflections

        forms = {f for fs in getAllInflections(verb, upos="VERB").values() for f in fs}
        return not forms or w in forms or w.removesuffix("s") in forms

    def _unheard(self, w: str) -> set[str]:
        """Parts the letters give `w` but its sounds do not (data/clues/en_unheard_bases.tsv, built by
        experiments/tools/build_en_bases.py): COUNTRY is no count, ENTRY no try, HOSTAGE no host,
        CONFIRM no con + firm."""
        if not self.unheard_bases:
            return set()
        return {b for f in {w} | self.lemmas(w) for b in self.unheard_bases.get(f, ())}

    def bound_suffix(self, w: str, right: str) -> bool:
        """Whether the right part of a cut of `w` is a suffix there, not the word (RULES 4.4): one of
        `BOUND_SUFFIXES`, a head the bound-heads table lists for `w` (FRIENDSHIP's -ship), or the
        unstressed -age (PACKAGE and MESSAGE hold no age; TEENAGE does)."""
        return (right in BOUND_SUFFIXES or self._bound_head(w, right)
                or (right in ("age", "ages") and unstressed_age(w)))

    def _bound_head(self, w: str, right: str) -> bool:
        """Whether `right` ends `w` as a suffix, not as the word (data/clues/en_bound_heads.tsv, built by
        experiments/tools/build_en_heads.py): FRIENDSHIP's -ship, not SPACESHIP's ship."""
        heads = self.tables.bound_heads or {}
        return any(right == h or h in self.lemmas(right) for f in {w} | self.lemmas(w) for h in heads.get(f, ()))

    def _parts(self, w: str) -> dict[str, bool]:
        parts: dict[str, bool] = {}
        if not w.isalpha():
            return parts
        for left, right in self.compound_cuts(w):
            if self._accidental(w, left):
                continue  # letters, not parts by meaning: CARPET is not car + pet (RULES 4.3/4.4)
            own = (left,) if self.bound_suffix(w, right) else (left, right)
            if (right == "ally" and self._common(left + "al") and not left.endswith("ic")
                    and left not in self.derivation_bases(left + "al", 1)):
                own = (left + "al",)  # FINALLY is final + ly, no fin (LEGALLY: leg); MUSICALLY keeps music
            for p in own:
                parts[p] = parts.get(p, False) or p not in DETERMINER_PARTS  # EVERYDAY's every is weak
                for b in self.derivation_bases(p, 1):  # a part's base too: DISHWASHER holds wash (washer)
                    parts[b] = True
            if right in own:
                for r in self.lemmas(right):
                    parts[r] = True
        for part in PARTICLES:  # PLUGIN = plug + in, CHECKUP = check + up
            left = w[: -len(part)]
            if w.endswith(part) and len(left) >= 4 and self.pos(left) and self._common(left):
                parts[left] = True
        for b in self.derivation_bases(w):
            parts[b] = True
        for _stem, lemma in self._inflected_stems(w):  # RULES 4.3: a regular inflection holds its lemma's
            for b in self.derivation_bases(lemma):     # bases (HOSPITALIZED, of hospitalize: hospital)
                parts[b] = True
        base = w[1:]  # RULES 4.3: the a- of state and place (ASLEEP, AFLOAT, ASHORE, ABOARD, AWAKE)
        if (w.startswith("a") and len(base) >= 4 and self.pos(w) & {A, "ADV"} and self.pos(base) & {N, V}
                and self._common(base) and (not self.freq or self._f(w) < self._f(base))):
            parts[base] = True  # not ABOUT, AROUND, AGAIN (commoner than bout, round, gain), AMASS (a verb)
        for el in PLACE_ELEMENTS:  # RULES 4.3/4.4: a place name built on a common word (STONEHENGE)
            left = w[: -len(el)]
            if (w.endswith(el) and len(left) >= 4 and not self.pos(w) and self._common(left)
                    and N in self.pos(left) and sound_split(w, left, el) is not False):
                parts[left] = True
        for b in self._suffix_bases(w):
            parts[b] = True
            if not self._readings(w) and w in (b + "s", b + "es"):  # RULES 4.3: a plural the lemmatiser does
                for bb in self.derivation_bases(b):                 # not list holds its singular's bases
                    parts[bb] = True                                # (AMERICANS: american, so america)
        for b in self._unheard(w):
            parts.pop(b, None)  # a base by letters the word does not say: COUNTRY holds no count
        for lem in {w} | self.lemmas(w):  # irregular derivations (data/clues/en_derivations.tsv)
            for b in (self.tables.derivations or {}).get(lem, ()):
                parts[b] = True
        for lem in {w} | self.lemmas(w) | set(parts):  # TENTH, SIXTY, TENFOLD; TENTHS by its part tenth
            for b in number_bases(lem, self.tables.number_words):  # (RULES 4.3)
                parts[b] = True
        for p in parts_before_suffix(w, parts):  # RULES 4.3/4.4: a compound before a Germanic suffix holds
            held = self.info(p).parts              # the words it is cut into (SPORTSMANSHIP: sportsman, so
            for cut in self.compound_cuts(p):      # sports; FOOTBALLER: football, so foot and ball), of four
                for q in cut:                      # letters or more (MANAGER is no man, OFFENDER no end)
                    if q in held and len(q) >= 4:
                        parts.setdefault(q, held[q])
        for p in list(parts):
            if self._word_of_its_own(p):
                continue  # GROUND is no GRIND, ROSE no RISE, LAYOUT's lay no LIE
            for lem in self.lemmas(p):
                parts.setdefault(lem, True)
        forms = {w} | self.lemmas(w)
        for f in forms:
            parts.pop(f, None)
        return parts

    def _american(self, w: str) -> str:
        """The American spelling of a British ending (`BRITISH_ENDINGS`: ODOUR -> odor), or ""."""
        for brit, am in BRITISH_ENDINGS:
            stem = w[: -len(brit)]
            if (w.endswith(brit) and len(stem) >= (2 if brit.startswith("our") else 4)
                    and any(ch in "aeiouy" for ch in stem)):
                us = stem + am
                if self._readings(us) and self._f(us) >= REAL_MIN:
                    return us
        return ""

    def _canon(self, w: str) -> str:
        """The canonical spelling: the variants table's, else the American ending's (RULES 4.6)."""
        return self.tables.variants.get(w) or self._american(w) or w

    def _build(self, w: str) -> WordInfo:
        canon = self.tables.variants.get(w, w)
        pieces = [p for p in SPLIT.split(w) if p] if SPLIT.search(w) else []
        if pieces:  # a text of separators only ("-") has none: read as it stands (not one word, RULES 4.7)
            infos = self.info_many(pieces)
            parts: dict[str, bool] = {}
            for p, info in zip(pieces, infos):
                for f in info.forms:
                    parts[f] = True
                for q in info.parts:
                    parts[q] = True
            joined = "".join(pieces)
            forms = {w, joined, " ".join(pieces), "-".join(pieces), canon}
            for lem in self.lemmas(pieces[-1]) - {pieces[-1]}:  # RULES 4.3: the head's inflection
                alt = [*pieces[:-1], lem]                          # (X-RAYS, T-SHIRTS, HOT DOGS)
                forms |= {"".join(alt), " ".join(alt), "-".join(alt)}
            forms = frozenset(forms)
            for f in forms:
                parts.pop(f, None)
            real = all(i.real for i in infos)
            return WordInfo(w, canon, forms, parts, real, False)
        possessive = w[:-2] if w.endswith("'s") else w[:-1] if w.endswith("s'") else ""
        if possessive and possessive.isalpha():  # king's, kings', witch's: forms of the word
            base = w[:-1] if w.endswith("s'") else possessive
            binfo = self.info(base)
            forms = frozenset({w} | binfo.forms)
            return WordInfo(w, canon, forms, dict(binfo.parts), binfo.real, binfo.number)
        canon = self._canon(w)
        bare = w.replace("'", "")
        if canon == w and bare != w and bare.isalpha() and not self.lemmas(bare):
            canon = bare  # RULES 4.6: O'CLOCK and OCLOCK, DON'T and DONT are one word (not WE'LL and WELL)
        forms = frozenset({w, canon} | self.lemmas(w) | {self._canon(l) for l in self.lemmas(w)})
        stem = w[:-1]
        if (w.endswith("s") and not self._readings(w) and stem.isalpha() and initialisms().get(stem)
                and w not in initialisms()):  # RULES 4.3: TVS, CDS, DJS are the plurals of TV, CD, DJ (as TV'S
            forms |= self.info(stem).forms  # is its possessive); CBS, said C-B-S, is an initialism of its own
        number = w.isdigit() or w in self.tables.number_words
        real = w.isdigit() or (bool(LATIN_WORD.match(w)) and self.known(w))
        parts = self._parts(w)
        for f in self._contracted(w):  # RULES 4.3: DON'T holds do, O'CLOCK clock
            parts[f] = True
        if canon != w:  # RULES 4.6: a variant spelling has its canonical spelling's parts (AEROPLANE: plane)
            for p, strong in self.info(canon).parts.items():
                if p not in forms:
                    parts[p] = parts.get(p, False) or strong
        for p, strong in list(parts.items()):  # RULES 4.6: a part in every spelling (COLOURFUL holds color)
            for q in self._spellings(self.tables.variants.get(p, p)) - forms:
                if self.pos(q) == self.pos(p):  # not another word's sense: TIRELESS's tire is no tyre
                    parts[q] = parts.get(q, False) or strong
        return WordInfo(w, canon, forms, parts, real, number)

    def _contracted(self, w: str) -> set[str]:
        """The forms of the words a contraction joins (DON'T: do, not; SHE'LL: she, will; CAN'T: can,
        not), and the word after o' (O'CLOCK: clock): parts of the clue (RULES 4.3)."""
        if w.count("'") != 1:
            return set()
        words: list[str] = []
        if w.startswith("o'") and len(w) > 4:
            words = [w[2:]]
        for clitic, full in CLITICS.items():
            if w.endswith(clitic) and len(w) > len(clitic):
                host = w[: -len(clitic)]
                words = [CONTRACTION_HOSTS.get(host, host) if clitic == "n't" else host, full]
                break
        out: set[str] = set()
        for p in words:
            if p and p.isalpha() and self.known(p):
                out |= self.info(p).forms
        return out

    def _spellings(self, canon: str) -> set[str]:
        """Every spelling of the variant group whose canonical spelling is `canon` (data/clues/en_variants.tsv)."""
        groups = self.__dict__.get("_variant_groups")
        if groups is None:
            groups = self._variant_groups = {}
            for spelling, c in self.tables.variants.items():
                groups.setdefault(c, {c}).add(spelling)
        return groups.get(canon, {canon})

    def _find_foreign(self, w: str) -> str:
        """The language code of another language `w` is a word of (RULES 4.6), or "": only for
        words the lemmatiser does not know, much more common (wordfreq zipf, by FOREIGN_GAP) in
        French, Spanish, German, Italian or Portuguese than in English, or the romanization of an
        everyday Korean word that is (`data/clues/en_romanized_ko.tsv`: "ko: 바다" for BADA)."""
        if not w.isalpha() or self.lemmas(w) or w in self.tables.variants:
            return ""
        need = max(FOREIGN_MIN, self.zipf(w) + FOREIGN_GAP)
        if need > 7.0:
            return ""
        for other in FOREIGN_LANGUAGES:  # first match: one language's table loaded, usually
            table = self._other_freq.get(other)
            if table is None:  # only words of zipf >= FOREIGN_MIN there can ever count
                table = Lookup(f"wordfreq-{other}-z{FOREIGN_MIN:g}", ("wordfreq",),
                               lambda other=other: _wordfreq(other, FOREIGN_MIN))
                self._other_freq[other] = table
            f = table.get(w, 0.0)
            if f > 0 and math.log10(f * 1e9) >= need:
                return other
        korean = self.tables.romanized.get(w)   # Korean in Latin letters: BADA for 바다
        if korean is not None and korean[1] >= max(FOREIGN_MIN, self.zipf(w) + ROMANIZED_GAP):
            return f"ko: {korean[0]}"
        return ""
