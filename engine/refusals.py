"""The engines' refusals of a move (`IllegalAction`) by kind, in Korean and English, as the clue
filter words its verdicts (`engine.clues.messages`): the English is the exception's message, the
Korean what a Korean board's page shows (`refusal_text`), so that a Korean player is not told a rule
in English. The engine itself prints neither."""

from __future__ import annotations

from typing import Any, Sequence

from .errors import IllegalAction
from .record_fields import board_spelling, shown

#: kind -> (Korean, English); fields in braces, a tuple field joined by "or"
_REFUSALS = {
    # both board games
    "over": ("게임이 끝났습니다({result})", "the game is over ({result})"),
    "over_won": ("게임이 끝났습니다({team} 승리)", "the game is over ({team} won)"),
    "clue_turn": ("지금은 {givers}의 힌트 차례입니다", "it is {givers}'s turn to give a clue"),
    "clue_turn_not": ("지금은 {giver}의 힌트 차례입니다({seat}의 차례가 아닙니다)",
                      "it is {giver}'s turn to give a clue, not {seat}'s"),
    "guessing": ("{guesser}이(가) 지금 힌트로 추측하고 있습니다: 차례가 끝나지 않았습니다",
                 "{guesser} is guessing on the current clue; the turn is not over"),
    "clue_text": ("힌트는 글로 쓴 한 단어입니다", "a clue is one word, written as text, not {type}"),
    "clue_empty": ("힌트는 한 단어입니다", "a clue is one word"),
    "not_one_word": ("{word}은(는) 한 단어가 아닙니다(띄어쓰기·하이픈 불가)", "{word} is not one word (no spaces, no hyphens)"),
    "off_board": ("{word}은(는) {what}이(가) 아닙니다", "{word} is not {what}"),
    "off_board_spelled": ("{word}은(는) {what}이(가) 아닙니다: 보드에는 {board}(으)로 적혀 있습니다(수는 보드에 적힌 "
                          "그대로 카드를 짚습니다)",
                          "{word} is not {what}: the board spells it {board}, not {spelled} (a move names a card "
                          "exactly as the board spells it)"),
    "unknown_seat": ("알 수 없는 자리입니다: {seat}", "unknown seat {seat}; {seats}"),
    "not_an_action": ("이 게임에서 둘 수 없는 수입니다", "{action} is not a {game} action{moves}"),
    # Duet (RULES 3)
    "duet_number": ("듀엣의 힌트 숫자는 0~{most}입니다({number}은(는) 안 됩니다)", "a Duet clue number is 0..{most}, not {number}"),
    "sudden_death_clue": ("서든데스에서는 힌트를 줄 수 없습니다", "no clues in sudden death"),
    "sudden_death_stop": ("서든데스에서는 멈출 수 없습니다: 추측하거나 파트너에게 추측을 넘기세요",
                          "no stopping in sudden death: guess or let the partner guess"),
    "sudden_death_done": ("{seat}은(는) 서든데스에서 더 찾을 초록 요원이 없습니다",
                          "{seat} has no greens left to find in sudden death"),
    "side_done_clue": ("{seat}의 초록 요원 아홉이 모두 덮였습니다: {seat}은(는) 이제 추측만 합니다",
                       "{seat}'s nine greens are all covered: {seat} only guesses now"),
    "side_done_guess": ("{other}의 초록 요원 아홉이 모두 덮였습니다: {seat}은(는) 더 추측할 것이 없고 힌트만 줍니다",
                        "{other}'s nine greens are all covered: {seat} has nothing left to guess and only gives clues"),
    "guess_first": ("추측하려면 먼저 힌트가 있어야 합니다", "a guess needs a clue first"),
    "duet_guesser": ("{giver}이(가) 힌트를 주었습니다: {guesser}만 추측합니다", "{giver} gave the clue; only {guesser} guesses"),
    "covered_agent": ("{word}은(는) 요원 카드로 덮였습니다", "{word} is covered by an agent"),
    "covered_both": ("{word}은(는) 두 사람 모두에게 덮였습니다", "{word} is covered for both players"),
    "known_bystander": ("{word}은(는) {seat}의 추측으로 이미 행인임이 알려졌습니다",
                        "{word} is already known to be a bystander for {seat}'s guesses"),
    "stop_no_turn": ("멈출 차례가 없습니다: 먼저 힌트가 있어야 합니다", "there is no turn to stop: a clue comes first"),
    "duet_stopper": ("추측하는 {guesser}만 멈출 수 있습니다", "only the guesser {guesser} may stop"),
    "duet_stop_early": ("맞힌 추측이 하나 이상 있어야 차례를 멈출 수 있습니다",
                        "a turn may be stopped only after at least one correct guess"),
    "bot_first": ("정한 대로 봇 파트너가 첫 힌트를 줍니다", "the bot partner gives the first clue (as chosen)"),
    "hold_back_outside": ("추측을 넘기는 것은 서든데스에서만 할 수 있습니다", "a seat may hold back only in sudden death"),
    "hold_back_again": ("{seat}은(는) 이미 파트너에게 추측을 넘겼습니다: 파트너가 추측하면 다시 고를 수 있습니다",
                        "{seat} lets the partner guess already: a guess of the partner's gives the choice back"),
    # Codenames and Pictures (RULES 1, 2)
    "past_the_limit": ("{team} 팀의 차례는 마지막으로 허용된 추측(숫자 + 1) 뒤에 저절로 끝났습니다",
                       "{team}'s turn ended by itself after its last allowed guess (number + 1)"),
    "must_cover": ("{seat}이(가) 먼저 {team} 팀의 요원 하나를 덮어야 합니다", "{seat} must first cover one of {team}'s agents"),
    "team_sudden_death": ("{team} 팀은 서든데스입니다: 힌트도 멈춤도 없이 추측만 합니다",
                          "{team} is in sudden death: no clues, no stopping, only guesses"),
    "needs_clue": ("{what}에는 먼저 힌트가 있어야 합니다: {giver}이(가) 힌트를 줍니다", "{what} needs a clue first: {giver} gives it"),
    "codenames_number": ("힌트 숫자는 0~{most} 또는 무제한입니다({number}은(는) 안 됩니다)",
                         "a clue number is 0..{most} or \"unlimited\", not {number}"),
    "team_guesser": ("{team} 팀의 차례에는 {guesser}만 추측합니다({seat}은(는) 안 됩니다)",
                     "only {guesser} guesses on {team}'s turn, not {seat}"),
    "already_covered": ("{word}은(는) 이미 덮였습니다", "{word} is already covered"),
    "team_stopper": ("{guesser}만 {team} 팀의 차례를 멈출 수 있습니다", "only {guesser} may stop {team}'s turn"),
    "team_stop_early": ("멈추기 전에 적어도 한 번은 추측해야 합니다", "the guessers must make at least one guess before stopping"),
    "nothing_to_cover": ("지금은 아무도 덮을 카드가 없습니다(규칙 1.6 벌칙, 1.8 가상의 상대)",
                         "nobody has a card to cover now (RULES 1.6 penalty, 1.8 virtual opponent)"),
    "cover_turn": ("지금은 {seat}이(가) 덮을 차례입니다({mover}은(는) 아닙니다)", "{seat} covers now, not {mover}"),
    "not_their_agent": ("{word}은(는) {team} 팀의 요원이 아닙니다", "{word} is not one of {team}'s agents"),
}

#: the English names and phrases a field may hold, in Korean (as the page's interface names them)
_KOREAN = {
    "red": "빨강", "blue": "파랑", "red-spymaster": "빨강 스파이마스터", "red-guesser": "빨강 요원",
    "blue-spymaster": "파랑 스파이마스터", "blue-guesser": "파랑 요원",
    "won": "승리", "lost": "패배", "a clue": "힌트", "a guess": "추측", "stopping": "멈춤",
    "a word of the board": "보드의 단어", "a card of the board": "보드의 카드",
    "'unlimited'": "무제한",   # a Duet clue's UNLIMITED number (RULES 3.4), as shown() quotes it: 무제한 typed
}
_OR = {"ko": " 또는 ", "en": " or "}


def _field(value: Any, language: str) -> str:
    if isinstance(value, tuple):
        return _OR[language].join(_field(v, language) for v in value)
    text = str(value)
    return _KOREAN.get(text, text) if language == "ko" else text


def refusal(rule: str, kind: str, **fields: Any) -> IllegalAction:
    """The IllegalAction of a refusal `kind` (a key of the table), its message the English line."""
    return IllegalAction(rule, _REFUSALS[kind][1].format(**{k: _field(v, "en") for k, v in fields.items()}),
                         kind=kind, fields=fields)


def off_board(rule: str, word: Any, words: Sequence[str], what: str) -> IllegalAction:
    """A guess or cover of `word`, which names no card (and how the board spells it, `record_fields.board_spelling`)."""
    spelling = board_spelling(word, words)
    if spelling is None:
        return refusal(rule, "off_board", word=shown(word), what=what)
    return refusal(rule, "off_board_spelled", word=shown(word), what=what, spelled=spelling[0], board=spelling[1])


def worded(lines: tuple[str, str], language: str | None, fields: dict) -> str:
    """One line of a (Korean, English) pair in `language` ("ko", else English), its fields worded as
    the refusals' are (English names of teams and seats in Korean): the web server's own refusals
    (`experiments.web.messages`) are worded by it too."""
    language = "ko" if language == "ko" else "en"
    return lines[0 if language == "ko" else 1].format(**{k: _field(v, language) for k, v in fields.items()})


def refusal_text(exc: IllegalAction, language: str | None) -> str:
    """The refusal as a page of a `language` board shows it: Korean for "ko" where the table words it
    (a refusal the clue filter or the text check worded is in the board's language already)."""
    if language != "ko" or exc.kind not in _REFUSALS:
        return exc.message
    return worded(_REFUSALS[exc.kind], "ko", exc.fields)
