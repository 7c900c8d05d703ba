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
    # Spy's Word (RULES 5); a seat's id ({actor}, {speaker}, {host}) is named by the room's page
    "sw_over": ("게임이 끝났습니다({result})", "the game is over ({result})"),
    "sw_clock_timeouts": ("시간 초과는 시계만 보냅니다", "time-outs come from the clock"),
    "sw_clock_only": ("시계는 시간 초과만 보냅니다", "the clock only sends time-outs"),
    "sw_unknown_seat": ("알 수 없는 자리입니다: {seat}", "unknown seat {seat}"),
    "sw_departed": ("{actor}은(는) 방을 나갔습니다", "{actor} has left the room"),
    "sw_disconnected": ("{actor}은(는) 연결이 끊겼습니다", "{actor} is disconnected"),
    "sw_not_an_action": ("이 게임에서 둘 수 없는 수입니다", "{action} is not a Spy's Word action"),
    "sw_started": ("게임이 이미 시작되었습니다: 카드 확인은 끝났습니다", "the game has started: the cards were already confirmed"),
    "sw_confirmed": ("{actor}은(는) 이미 카드를 확인했습니다", "{actor} has already confirmed its card"),
    "sw_no_clues": ("지금은 힌트를 말할 때가 아닙니다(단계: {phase})", "no clues now (phase {phase})"),
    "sw_spectator_clue": ("{actor}은(는) 탈락했습니다: 관전자는 힌트를 말하지 않습니다",
                          "{actor} is eliminated: spectators give no clues"),
    "sw_duel_clue": ("결투 힌트는 동점인 플레이어만 말합니다", "only the tied players give a duel clue"),
    "sw_clue_text": ("힌트는 글로 쓴 단어나 문장입니다", "a clue is a word or a sentence, written as text, not {type}"),
    "sw_too_long": ("{what}: {limit}자를 넘을 수 없습니다({length}자)", "{what} is at most {limit} characters, not {length}"),
    "sw_invisible": ("{what}에 보이지 않는 문자({code})가 들어 있습니다", "{what} may not hold an invisible character ({code})"),
    "sw_clue_empty": ("힌트가 비어 있습니다", "a clue may not be empty"),
    "sw_one_word": ("한 단어 모드입니다: 구가 아닌 한 단어로 말하세요", "the clue mode is one word: say one word, not a phrase"),
    "sw_one_sentence": ("한 문장 모드입니다: 여러 문장이 아닌 한 문장으로 말하세요",
                        "the clue mode is one sentence: say one sentence, not several"),
    "sw_own_word": ("자기 단어를 힌트로 말할 수 없습니다", "a clue may not be the word itself"),
    "sw_repeat": ("{text}은(는) 앞에서 나온 힌트입니다({seat}, {round}라운드)",
                  "{text} repeats an earlier clue ({seat}, round {round})"),
    # the clue checker's verdict, already in the game's language
    "sw_checked": ("{message} (규칙 {section})", "{message} ({cited} {section})"),
    "sw_translation": ("{token}은(는) 단어를 번역한 말입니다", "{token} is a translation of the word"),
    "sw_translation_form": ("{token}은(는) 단어를 번역한 말 {translation}의 한 형태입니다",
                            "{token} is a form of {translation}, a translation of the word"),
    "sw_vote_not_yet": ("투표는 토론이 끝난 뒤에 시작합니다(단계: {phase})", "the vote starts after the discussion (phase {phase})"),
    "sw_host_starts_vote": ("여러 기기로 할 때는 방장({host})만 투표를 일찍 시작할 수 있습니다",
                            "on many devices only the host ({host}) may start the vote early"),
    "sw_no_vote": ("지금은 투표 중이 아닙니다(단계: {phase})", "no vote under way (phase {phase})"),
    "sw_spectator_vote": ("{actor}은(는) 탈락했습니다: 관전자는 투표하지 않습니다", "{actor} is eliminated: spectators do not vote"),
    "sw_duel_voters": ("결투 투표는 동점이 아닌 플레이어만 합니다", "in a duel vote only the players who are not tied vote"),
    "sw_voted": ("{actor}은(는) 이미 투표했습니다: 투표는 바꿀 수 없습니다", "{actor} has voted: a vote is final"),
    "sw_duel_pass": ("결투 투표에는 'PASS'가 없습니다", "no PASS in a duel vote"),
    "sw_pass_off": ("'PASS'를 허용하지 않는 방입니다(방장 설정)", "PASS is not allowed (host setting)"),
    "sw_pass_again": ("'PASS'로 끝난 투표 바로 다음 투표에는 'PASS'할 수 없습니다",
                      "no PASS on the vote right after a vote that ended in PASS"),
    "sw_self_vote": ("자기 자신에게는 투표할 수 없습니다", "a player never votes for itself"),
    "sw_duel_tied": ("결투 투표는 동점인 플레이어 {tied} 중에서 고릅니다", "the duel vote is among the tied players {tied}"),
    "sw_not_remaining": ("{target}은(는) 남은 플레이어가 아닙니다", "{target} is not a remaining player"),
    "sw_guess_who": ("투표로 탈락한 유령만 시민의 단어를 맞힐 수 있습니다",
                     "only the ghost, once eliminated by the vote, guesses the citizens' word"),
    "sw_not_ghost": ("{actor}은(는) 유령이 아닙니다: 유령만 추측합니다", "{actor} is not the ghost: only the ghost guesses"),
    "sw_guess_text": ("유령의 추측은 글로 쓴 단어입니다", "the ghost's guess is a word, written as text, not {type}"),
    "sw_guess_empty": ("유령의 추측은 단어입니다: 비어 있을 수 없습니다", "the ghost's guess names a word: it may not be empty"),
    "sw_no_screen": ("닫을 탈락자 화면이 없습니다", "there is no private screen of this player to close"),
    "sw_ghost_screen": ("유령의 화면은 추측입니다: 추측하세요(또는 시간이 다 되기를 기다리세요)",
                        "the ghost's screen is its guess: guess (or let the time run out)"),
    "sw_t_speaker": ("말하는 사람이 없습니다", "no speaker is talking"),
    "sw_t_speaker_single": ("휴대폰 하나로 할 때는 말하기 타이머가 없습니다", "a single device has no speaking timer"),
    "sw_t_discussion": ("토론 중이 아닙니다", "no discussion under way"),
    "sw_t_unlimited": ("토론 시간은 제한이 없습니다", "the discussion time is unlimited"),
    "sw_t_vote": ("투표 중이 아닙니다", "no vote under way"),
    "sw_t_vote_single": ("휴대폰 하나로 할 때는 투표 타이머가 없습니다: 모두 차례로 투표합니다",
                         "a single device has no vote timer: everyone votes in turn"),
    "sw_t_screen": ("열린 탈락자 화면이 없습니다", "no eliminated player's screen is open"),
    "sw_t_guess_single": ("휴대폰 하나로 할 때는 유령의 추측에 시간 제한이 없습니다",
                          "a single device has no time limit on the ghost's guess"),
    "sw_t_host_connected": ("방장은 연결되어 있습니다", "the host is connected"),
    "sw_t_host_told": ("방장의 연결이 끊긴 것을 이미 모두에게 알렸습니다",
                       "everyone was already told that the host is disconnected"),
    "sw_t_host_early": ("방장은 1분 알림 뒤 2분이 지나야 바뀝니다",
                        "the host is replaced after 2 minutes, after the 1-minute notice"),
    "sw_t_no_heir": ("방장을 이어받을 연결된 플레이어가 없습니다", "no connected player can take over as host"),
    "sw_t_unknown": ("알 수 없는 시간 초과입니다: {timeout}", "unknown time-out {timeout}"),
    "sw_connections": ("연결은 여러 기기로 할 때의 일입니다", "connections are a many-device matter"),
    "sw_connected": ("{actor}은(는) 연결되어 있습니다", "{actor} is connected"),
    "sw_kick_single": ("내보내기는 여러 기기로 할 때의 규칙입니다", "kicking is a many-device rule"),
    "sw_kick_host": ("방장({host})만 플레이어를 내보낼 수 있습니다", "only the host ({host}) may kick a player"),
    "sw_kick_self": ("방장은 자신을 내보내지 않고 방을 나갑니다", "the host leaves rather than kicking itself"),
    "sw_not_in_room": ("{target}은(는) 방에 없습니다", "{target} is not in the room"),
    "sw_leave_single": ("나가기는 여러 기기로 할 때의 규칙입니다", "leaving is a many-device rule"),
    "sw_single_room": ("나가기와 내보내기는 여러 기기로 할 때의 규칙입니다(규칙 5.12)",
                       "leaving and kicking are many-device rules (RULES 5.12)"),
}

#: the English names and phrases a field may hold, in Korean (as the page's interface names them)
_KOREAN = {
    "red": "빨강", "blue": "파랑", "red-spymaster": "빨강 스파이마스터", "red-guesser": "빨강 요원",
    "blue-spymaster": "파랑 스파이마스터", "blue-guesser": "파랑 요원",
    "won": "승리", "lost": "패배", "a clue": "힌트", "a guess": "추측", "stopping": "멈춤",
    "a word of the board": "보드의 단어", "a card of the board": "보드의 카드",
    "'unlimited'": "무제한",   # a Duet clue's UNLIMITED number (RULES 3.4), as shown() quotes it: 무제한 typed
    # Spy's Word: what a text is, its phases and a game's status (RULES 5)
    "a one-word clue": "한 단어 힌트", "a sentence clue": "문장 힌트", "the ghost's guess": "유령의 추측",
    "ready": "카드 확인", "clues": "힌트", "discussion": "토론", "vote": "투표", "duel_clues": "결투 힌트",
    "duel_vote": "결투 투표", "ghost_guess": "유령의 추측", "private_screen": "탈락자의 화면",
    "finished": "승부가 났습니다", "aborted": "중단되었습니다",
    # the web server's requests (experiments.web.messages)
    "a new room": "새 방", "a new profile": "새 프로필", "a join request": "참가 요청",
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


def wording(kind: str, language: str | None, **fields: Any) -> str:
    """The line of a refusal `kind` in `language`: a verdict a checker returns as text (Spy's Word's
    translation check) in the game's language, as the clue filter's."""
    return worded(_REFUSALS[kind], language, fields)


def refusal_text(exc: IllegalAction, language: str | None) -> str:
    """The refusal as a page of a `language` board shows it: Korean for "ko" where the table words it
    (a refusal the clue filter or the text check worded is in the board's language already)."""
    if language != "ko" or exc.kind not in _REFUSALS:
        return exc.message
    return worded(_REFUSALS[exc.kind], "ko", exc.fields)
