"""The prompts of the language-model agents, in English and Korean: built from one observation only.

Every builder takes the seat's observation (and the agent's language) and nothing else: no state,
no record, no other seat's view. A prompt is two chat messages: a system message with the rules
the role needs and the strict answer format, and a user message with the seat's view of the
table (its board, its own key where the seat has one, the public history) and the question.

Answer formats (the keywords stay English in both languages, so the parser is one):

    spymaster (Duet, Codenames)    CLUE: <one word> <number>
    guesser                        GUESS: <a card's word>   or   STOP
    Spy's Word clue                CLUE: <one word>
    Spy's Word vote                VOTE: <seat>             (or VOTE: pass when passing is allowed)
    Spy's Word ghost's guess       GUESS: <one word>
"""

from __future__ import annotations

from typing import Any

# ----- the texts ------------------------------------------------------------------------------------
TEXT: dict[str, dict[str, str]] = {
    "en": {
        "duet_spymaster": (
            "You give clues in Codenames Duet, a cooperative word game for two players. The board has "
            "25 word cards. Your partner sees only the words and must find your green agents from your "
            "clues. A clue is ONE word and a number from 0 to 9: how many cards it points to. The clue "
            "word must not be a word on the board, a part of one, or contain one; no other language, no "
            "spelling or letters. If your partner touches one of your assassins the game is lost at once; "
            "a bystander ends the turn and costs a timer token.\n"
            "Answer with exactly one line and nothing else:\nCLUE: <word> <number>\nExample: CLUE: ocean 2"),
        "codenames_spymaster": (
            "You are the spymaster of the {team} team in Codenames. The board has {n} word cards. Your "
            "team's guesser sees only the words and must find your team's agents from your clues. A clue "
            "is ONE word and a number from 0 to 9: how many cards it points to. The clue word must not be "
            "a word on the board, a part of one, or contain one; no other language, no spelling. {assassin}\n"
            "Answer with exactly one line and nothing else:\nCLUE: <word> <number>\nExample: CLUE: ocean 2"),
        "guesser": (
            "You guess in Codenames{duet}. Your partner gave a clue: one word and a number, how many "
            "cards on the board it points to. Guess one card at a time: the card most related to the "
            "clue. You must guess at least once per clue; after a correct guess you may stop.\n"
            "Answer with exactly one line and nothing else:\nGUESS: <one word from the list of cards>\n"
            "or\nSTOP\nExample: GUESS: whale"),
        "spyword": (
            "You play Spy's Word, a party word game. Every player got a secret word. The citizens share "
            "one word; the spy (or spies) got a different but similar word and, like everyone, does not "
            "know which word the others have; the ghost has no word. In turn each player says a one-word "
            "clue about their word (never the word itself or a part of it, never a clue already said). "
            "Then everyone votes for the player they think holds a different word.\n"
            "Answer with exactly one line and nothing else, in the format asked for."),
        "spyword_clue_q": "Your clue, as one line:\nCLUE: <one word>",
        "spyword_vote_q": "Your vote, as one line:\nVOTE: <seat>\nYou may vote for: {cands}.{pass_}\nExample: VOTE: {example}",
        "spyword_pass": " You may also pass: VOTE: pass.",
        "ex_sw_clue_user": "Your word: lighthouse\nYour clue, as one line:\nCLUE: <one word>",
        "ex_sw_clue_answer": "CLUE: coast",
        "ex_sw_vote_user": "Your vote, as one line:\nVOTE: <seat>\nYou may vote for: p2, p4.",
        "ex_sw_vote_answer": "VOTE: p4",
        "ex_sw_ghost_guess_user": "Clues so far: coast, lamp, tower\nGUESS: <one word>",
        "ex_sw_ghost_guess_answer": "GUESS: lighthouse",
        "spyword_ghost_q": ("You are the ghost and were voted out: guess the citizens' word, as one line:\n"
                            "GUESS: <one word>"),
        # the user message's parts
        "board": "Board (all 25 words): {words}",
        "your_seat": "You are player {seat}.",
        "own_green": "Your green agents still to find: {words}",
        "own_assassin": "Your assassins (never lead your partner to them): {words}",
        "own_bystander": "Your bystanders: {words}",
        "covered": "Already covered (out of play): {words}",
        "partner_marked": "Your partner already guessed these as bystanders (it will not guess them again): {words}",
        "tokens": "Timer tokens left: {tokens}. Greens found: {found} of 15.",
        "partner_finished": "Your partner's greens are all found: only you guess now.",
        "cn_team": "Your team: {team}. Agents left: {left}.",
        "cn_own": "Your team's agents still hidden: {words}",
        "cn_opp": "The other team's agents still hidden: {words}",
        "cn_bystander": "Bystanders still hidden: {words}",
        "cn_assassin": "The assassin: {words}",
        "cn_revealed": "Revealed cards: {words}",
        "history": "What happened so far:\n{lines}",
        "no_history": "Nothing has happened yet.",
        "your_clue": "Answer in one line: CLUE: <word> <number>",
        "guessable": "Cards you can guess: {words}",
        "clue_now": "The clue: {word} {number}. Correct guesses on this clue so far: {correct}.",
        "guesses_left": "Guesses left this turn: {left}.",
        "sudden_death": ("Sudden death: no more clues. A guess that is not green for your partner loses the "
                         "game. Guess a card, or answer STOP to hold back."),
        "your_guess": "Answer in one line: GUESS: <card> (or STOP)",
        "cn_sudden_death": ("Sudden death (your team touched the assassin before finding all its agents): no more "
                            "clues, no limit, and you cannot stop. Guess your team's remaining agents one by one: "
                            "find them all and your team wins; any other card loses the game."),
        "your_guess_no_stop": "Answer in one line: GUESS: <card>",
        "cn_assassin_rule": ("If your guesser touches the assassin your team loses at once; an opponent's agent or a "
                             "bystander ends the turn."),
        "cn_assassin_ending_rule": (
            "Assassin ending: the game goes on until the assassin is found. Once all your team's agents are "
            "found, your guesser touching the assassin wins; touching it earlier puts your team in sudden death "
            "(no more clues: it must find all its remaining agents without a miss). An opponent's agent or a "
            "bystander ends the turn."),
        "cn_find_assassin": "Your team's agents are all found: lead your guesser to the assassin to win.",
        "cn_assassin_ending_guess": (
            "Assassin ending: the game goes on until the assassin is found. Once all your team's agents are "
            "found, touching the assassin wins; touching it earlier puts your team in sudden death (no more "
            "clues: you must then find all its remaining agents without a miss)."),
        "ex_clue_user": ("Your green agents still to find: whale, ship, fish\nYour assassins: car\n"
                         "Answer in one line: CLUE: <word> <number>"),
        "ex_clue_answer": "CLUE: ocean 3",
        "ex_guess_user": ("The clue: ocean 1.\nCards you can guess: apple, whale, car, moon\n"
                          "Answer in one line: GUESS: <card> (or STOP)"),
        "ex_guess_answer": "GUESS: whale",
        "sw_seat": "You are {seat}. Players in play: {seats}. Spies: {spies}. Ghost: {ghost}.",
        "sw_word": "Your word: {word}",
        "sw_no_word": "You are the ghost: you have no word. Blend in with clues that fit the others' clues.",
        "sw_role": "You know your role: {role}.",
        "sw_clues": "Clues so far (round: player: clue):\n{lines}",
        "sw_no_clues": "No clue has been said yet.",
        "sw_eliminated": "Voted out: {lines}",
        "sw_votes": "Earlier votes: {lines}",
        "yes": "yes", "no": "no",
        # history lines
        "h_clue": "{seat} gave the clue {word} {number}",
        "h_guess": "{seat} guessed {word}: {result}",
        "h_stop": "{seat} stopped",
        "h_penalty": "{seat}: penalty {result}",
        "h_cover": "{seat} covered {word}",
        "h_end_turn": "{seat}'s turn ended",
        # refusals and retries
        "retry": "Your answer was refused: {reason}\nAnswer again with exactly one line: {format}",
        "fmt_clue": "CLUE: <word> <number>",
        "fmt_guess": "GUESS: <word> or STOP",
        "fmt_sw_clue": "CLUE: <one word>",
        "fmt_vote": "VOTE: <seat>",
        "fmt_ghost": "GUESS: <one word>",
    },
    "ko": {
        "duet_spymaster": (
            "당신은 2인 협력 단어 게임 코드네임 듀엣에서 힌트를 주는 사람입니다. 판에는 단어 카드 25장이 있습니다. "
            "파트너는 단어만 보고 당신의 힌트로 당신의 초록 요원을 찾아야 합니다. 힌트는 단어 하나와 0에서 9 사이의 "
            "숫자(가리키는 카드 수)입니다. 힌트 단어는 판에 있는 단어이거나 그 일부이거나 그것을 포함하면 안 되고, "
            "다른 언어나 철자·글자 힌트도 안 됩니다. 파트너가 당신의 암살자를 고르면 즉시 패배하고, 행인은 차례를 "
            "끝내고 타이머 토큰을 하나 씁니다.\n"
            "다른 말 없이 정확히 한 줄로 답하세요:\nCLUE: <단어> <숫자>\n예: CLUE: 바다 2"),
        "codenames_spymaster": (
            "당신은 코드네임에서 {team} 팀의 스파이마스터입니다. 판에는 단어 카드 {n}장이 있습니다. 팀의 요원은 "
            "단어만 보고 당신의 힌트로 팀의 요원 카드를 찾아야 합니다. 힌트는 단어 하나와 0에서 9 사이의 숫자(가리키는 "
            "카드 수)입니다. 힌트 단어는 판에 있는 단어이거나 그 일부이거나 그것을 포함하면 안 되고, 다른 언어나 "
            "철자 힌트도 안 됩니다. {assassin}\n"
            "다른 말 없이 정확히 한 줄로 답하세요:\nCLUE: <단어> <숫자>\n예: CLUE: 바다 2"),
        "guesser": (
            "당신은 코드네임{duet}에서 카드를 맞히는 사람입니다. 파트너가 힌트를 주었습니다: 단어 하나와 판에서 "
            "가리키는 카드 수. 한 번에 카드 한 장씩, 힌트와 가장 관련 있는 카드를 고르세요. 힌트마다 적어도 한 번은 "
            "골라야 하고, 맞힌 뒤에는 멈출 수 있습니다.\n"
            "다른 말 없이 정확히 한 줄로 답하세요:\nGUESS: <카드 목록의 단어 하나>\n또는\nSTOP\n예: GUESS: 고래"),
        "spyword": (
            "당신은 파티 단어 게임 스파이 워드를 합니다. 모든 플레이어가 비밀 단어를 받았습니다. 시민들은 같은 단어를, "
            "스파이는 비슷하지만 다른 단어를 받았고, 누구도 다른 사람의 단어를 모릅니다. 유령은 단어가 없습니다. "
            "차례대로 각자 자기 단어에 대한 한 단어 힌트를 말합니다(단어 자체나 그 일부, 이미 나온 힌트는 안 됩니다). "
            "그 뒤 모두가 다른 단어를 가졌다고 생각하는 플레이어에게 투표합니다.\n"
            "다른 말 없이 요청한 형식으로 정확히 한 줄로 답하세요."),
        "spyword_clue_q": "당신의 힌트를 한 줄로:\nCLUE: <단어 하나>",
        "spyword_vote_q": "당신의 투표를 한 줄로:\nVOTE: <자리>\n투표할 수 있는 자리: {cands}.{pass_}\n예: VOTE: {example}",
        "spyword_pass": " 기권도 됩니다: VOTE: pass.",
        "ex_sw_clue_user": "당신의 단어: 등대\n당신의 힌트를 한 줄로:\nCLUE: <단어 하나>",
        "ex_sw_clue_answer": "CLUE: 해안",
        "ex_sw_vote_user": "당신의 투표를 한 줄로:\nVOTE: <자리>\n투표할 수 있는 자리: p2, p4.",
        "ex_sw_vote_answer": "VOTE: p4",
        "ex_sw_ghost_guess_user": "지금까지의 힌트: 해안, 불빛, 탑\nGUESS: <단어 하나>",
        "ex_sw_ghost_guess_answer": "GUESS: 등대",
        "spyword_ghost_q": "당신은 유령이고 투표로 탈락했습니다. 시민들의 단어를 한 줄로 맞혀 보세요:\nGUESS: <단어 하나>",
        "board": "판(단어 25개): {words}",
        "your_seat": "당신은 플레이어 {seat}입니다.",
        "own_green": "아직 찾아야 할 당신의 초록 요원: {words}",
        "own_assassin": "당신의 암살자(파트너가 절대 고르지 않게): {words}",
        "own_bystander": "당신의 행인: {words}",
        "covered": "이미 덮인 카드(게임에서 빠짐): {words}",
        "partner_marked": "파트너가 이미 행인으로 고른 카드(다시 고르지 않음): {words}",
        "tokens": "남은 타이머 토큰: {tokens}. 찾은 초록 요원: 15장 중 {found}장.",
        "partner_finished": "파트너의 초록 요원을 모두 찾았습니다: 이제 당신만 고릅니다.",
        "cn_team": "당신의 팀: {team}. 남은 요원: {left}.",
        "cn_own": "아직 숨은 우리 팀 요원: {words}",
        "cn_opp": "아직 숨은 상대 팀 요원: {words}",
        "cn_bystander": "아직 숨은 행인: {words}",
        "cn_assassin": "암살자: {words}",
        "cn_revealed": "공개된 카드: {words}",
        "history": "지금까지 있었던 일:\n{lines}",
        "no_history": "아직 아무 일도 없었습니다.",
        "your_clue": "한 줄로 답하세요: CLUE: <단어> <숫자>",
        "guessable": "고를 수 있는 카드: {words}",
        "clue_now": "힌트: {word} {number}. 이 힌트로 지금까지 맞힌 수: {correct}.",
        "guesses_left": "이번 차례에 남은 추측: {left}.",
        "sudden_death": "서든 데스: 더 이상 힌트가 없습니다. 파트너의 초록 요원이 아닌 카드를 고르면 패배합니다. "
                        "카드를 고르거나 STOP으로 기다리세요.",
        "your_guess": "한 줄로 답하세요: GUESS: <카드> (또는 STOP)",
        "cn_sudden_death": ("서든 데스 (우리 팀 요원을 다 찾기 전에 암살자를 골랐습니다): 더 이상 힌트가 없습니다. 횟수 "
                            "제한은 없고, 멈출 수 없습니다. 남은 우리 팀 요원을 하나씩 고르세요: 모두 찾으면 우리 팀이 "
                            "이기고, 다른 카드를 고르면 패배합니다."),
        "your_guess_no_stop": "한 줄로 답하세요: GUESS: <카드>",
        "cn_assassin_rule": "암살자를 고르면 즉시 패배하고, 상대 팀 요원이나 행인은 차례를 끝냅니다.",
        "cn_assassin_ending_rule": (
            "암살자 엔딩: 암살자를 찾을 때까지 게임이 끝나지 않습니다. 우리 팀 요원을 모두 찾은 뒤 암살자를 고르면 "
            "승리하고, 그 전에 고르면 서든 데스(더 이상 힌트 없이 남은 요원을 한 번도 틀리지 않고 모두 찾아야 함)가 "
            "됩니다. 상대 팀 요원이나 행인은 차례를 끝냅니다."),
        "cn_find_assassin": "우리 팀 요원을 모두 찾았습니다: 이기려면 팀원이 암살자를 고르도록 힌트를 주세요.",
        "cn_assassin_ending_guess": (
            "암살자 엔딩: 암살자를 찾을 때까지 게임이 끝나지 않습니다. 우리 팀 요원을 모두 찾은 뒤 암살자를 고르면 "
            "승리하고, 그 전에 고르면 서든 데스(더 이상 힌트 없이 남은 요원을 한 번도 틀리지 않고 모두 찾아야 함)가 "
            "됩니다."),
        "ex_clue_user": "아직 찾아야 할 당신의 초록 요원: 고래, 배, 물고기\n당신의 암살자: 자동차\n한 줄로 답하세요: CLUE: <단어> <숫자>",
        "ex_clue_answer": "CLUE: 바다 3",
        "ex_guess_user": "힌트: 바다 1.\n고를 수 있는 카드: 사과, 고래, 자동차, 달\n한 줄로 답하세요: GUESS: <카드> (또는 STOP)",
        "ex_guess_answer": "GUESS: 고래",
        "sw_seat": "당신은 {seat}입니다. 남은 플레이어: {seats}. 스파이 수: {spies}. 유령: {ghost}.",
        "sw_word": "당신의 단어: {word}",
        "sw_no_word": "당신은 유령이라 단어가 없습니다. 다른 사람들의 힌트에 어울리는 힌트로 섞여 드세요.",
        "sw_role": "당신이 아는 당신의 역할: {role}.",
        "sw_clues": "지금까지의 힌트(라운드: 플레이어: 힌트):\n{lines}",
        "sw_no_clues": "아직 나온 힌트가 없습니다.",
        "sw_eliminated": "탈락한 플레이어: {lines}",
        "sw_votes": "지난 투표: {lines}",
        "yes": "있음", "no": "없음",
        "h_clue": "{seat}의 힌트: {word} {number}",
        "h_guess": "{seat}이(가) {word}을(를) 골랐습니다: {result}",
        "h_stop": "{seat}이(가) 멈췄습니다",
        "h_penalty": "{seat}: 벌칙 {result}",
        "h_cover": "{seat}이(가) {word}을(를) 덮었습니다",
        "h_end_turn": "{seat}의 차례가 끝났습니다",
        "retry": "답이 거절되었습니다: {reason}\n정확히 한 줄로 다시 답하세요: {format}",
        "fmt_clue": "CLUE: <단어> <숫자>",
        "fmt_guess": "GUESS: <단어> 또는 STOP",
        "fmt_sw_clue": "CLUE: <단어 하나>",
        "fmt_vote": "VOTE: <자리>",
        "fmt_ghost": "GUESS: <단어 하나>",
    },
}
RESULTS = {
    "en": {"green": "green agent", "bystander": "bystander", "assassin": "assassin",
           "R": "red agent", "B": "blue agent", "N": "bystander", "X": "assassin"},
    "ko": {"green": "초록 요원", "bystander": "행인", "assassin": "암살자",
           "R": "빨강 요원", "B": "파랑 요원", "N": "행인", "X": "암살자"},
}
TEAMS = {"en": {"red": "red", "blue": "blue"}, "ko": {"red": "빨강", "blue": "파랑"}}
ROLES = {"en": {"citizen": "citizen", "spy": "spy", "ghost": "ghost"},   # Spy's Word (RULES 5.1)
         "ko": {"citizen": "시민", "spy": "스파이", "ghost": "유령"}}


def texts(language: str) -> dict[str, str]:
    return TEXT["ko" if language == "ko" else "en"]


def _join(words) -> str:
    words = list(words)
    return ", ".join(words) if words else "-"


def _system(content: str) -> dict:
    return {"role": "system", "content": content}


def _example(t: dict, role: str) -> list[dict]:
    """One worked exchange in the answer format (small models follow a shown answer far better)."""
    return [{"role": "user", "content": t[f"ex_{role}_user"]}, {"role": "assistant", "content": t[f"ex_{role}_answer"]}]


def _user(lines: list[str]) -> dict:
    return {"role": "user", "content": "\n".join(line for line in lines if line)}


def history_lines(history, language: str) -> list[str]:
    """The public events of a Codenames-family observation, one line each."""
    t, results = texts(language), RESULTS["ko" if language == "ko" else "en"]
    lines = []
    for e in history:
        key = "h_" + e.kind
        if key not in t:
            continue
        result = results.get(str(e.result), e.result) if e.result is not None else ""
        lines.append(t[key].format(seat=e.seat, word=e.word or "", number="" if e.number is None else e.number,
                                   result=result).strip())
    return lines


def _history(history, language: str) -> str:
    t = texts(language)
    lines = history_lines(history, language)
    return t["history"].format(lines="\n".join("- " + line for line in lines)) if lines else t["no_history"]


# ----- Duet ------------------------------------------------------------------------------------------
def duet_spymaster_messages(obs, language: str) -> list[dict]:
    """The Duet clue giver's prompt: its own key side only (the partner's side is never in the
    observation), what is covered, the public history."""
    t = texts(language)
    partner = "B" if obs.seat == "A" else "A"
    n = len(obs.words)
    covered = [obs.green_covered[i] or len(obs.bystander_marks[i]) == 2 for i in range(n)]
    open_ = [i for i in range(n) if not obs.green_covered[i] and partner not in obs.bystander_marks[i]]

    def cards(letter: str) -> list[str]:
        return [obs.words[i] for i in open_ if obs.own_key[i] == letter]

    marked = [obs.words[i] for i in range(n) if partner in obs.bystander_marks[i] and not obs.green_covered[i]]
    lines = [
        t["your_seat"].format(seat=obs.seat),
        t["board"].format(words=_join(obs.words)),
        t["own_green"].format(words=_join(cards("G"))),
        t["own_assassin"].format(words=_join(cards("X"))),
        t["own_bystander"].format(words=_join(cards("N"))),
        t["covered"].format(words=_join(w for w, c in zip(obs.words, covered) if c)) if any(covered) else "",
        t["partner_marked"].format(words=_join(marked)) if marked else "",
        t["tokens"].format(tokens=obs.tokens_left, found=obs.greens_found),
        _history(obs.history, language),
        t["your_clue"],
    ]
    return [_system(t["duet_spymaster"]), *_example(t, "clue"), _user(lines)]


def duet_guesser_messages(obs, language: str) -> list[dict]:
    """The Duet guesser's prompt: the cards it may touch, the clue, the public history (its own
    key side is not needed to guess: the partner's side judges, and that is never in the view)."""
    t = texts(language)
    sudden = obs.phase == "sudden_death"
    lines = [
        t["your_seat"].format(seat=obs.seat),
        _history(obs.history, language),
        t["tokens"].format(tokens=obs.tokens_left, found=obs.greens_found),
        t["partner_finished"] if obs.partner_finished else "",
    ]
    if sudden:
        lines.append(t["sudden_death"])
    elif obs.current_clue is not None:
        word, number = obs.current_clue
        lines.append(t["clue_now"].format(word=word, number=number, correct=obs.correct_this_turn))
    lines.append(t["guessable"].format(words=_join(obs.words[i] for i in obs.guessable())))
    lines.append(t["your_guess"])
    duet = " Duet" if language != "ko" else " 듀엣"
    return [_system(t["guesser"].format(duet=duet)), *_example(t, "guess"), _user(lines)]


# ----- Codenames (and Pictures) ------------------------------------------------------------------------
def _team(team: str, language: str) -> str:
    return TEAMS["ko" if language == "ko" else "en"].get(team, team)


def _revealed(obs, language: str) -> str:
    results = RESULTS["ko" if language == "ko" else "en"]
    shown = [f"{w} ({results.get(r, r)})" for w, r in zip(obs.words, obs.revealed) if r is not None]
    return texts(language)["cn_revealed"].format(words=_join(shown)) if shown else ""


def _agents_left(obs, language: str) -> str:
    return ", ".join(f"{_team(team, language)} {n}" for team, n in obs.agents_left)


def codenames_spymaster_messages(obs, language: str) -> list[dict]:
    """A Codenames spymaster's prompt: the key is the spymaster's own (RULES 1.1)."""
    t = texts(language)
    mine = "R" if obs.team == "red" else "B"
    hidden = obs.hidden()
    key = obs.key or ""

    def cards(pred) -> list[str]:
        return [obs.words[i] for i in hidden if pred(key[i])]

    lines = [
        t["cn_team"].format(team=_team(obs.team, language), left=_agents_left(obs, language)),
        t["board"].format(words=_join(obs.words)).replace("25", str(len(obs.words))),
        t["cn_own"].format(words=_join(cards(lambda c: c == mine))),
        t["cn_opp"].format(words=_join(cards(lambda c: c in "RB" and c != mine))),
        t["cn_bystander"].format(words=_join(cards(lambda c: c == "N"))),
        t["cn_assassin"].format(words=_join(cards(lambda c: c == "X"))),
        _revealed(obs, language),
        _history(obs.history, language),
        t["your_clue"],
    ]
    ending = obs.variant == "assassin_ending"   # RULES 2.3: the assassin ends the game, and may win it
    if ending and not obs.own_targets():
        lines.insert(-1, t["cn_find_assassin"])
    system = t["codenames_spymaster"].format(team=_team(obs.team, language), n=len(obs.words),
                                             assassin=t["cn_assassin_ending_rule" if ending else "cn_assassin_rule"])
    return [_system(system), *_example(t, "clue"), _user(lines)]


def codenames_guesser_messages(obs, language: str) -> list[dict]:
    """A Codenames guesser's prompt: no key (a guesser has none), the revealed cards, the clue."""
    t = texts(language)
    lines = [
        t["cn_team"].format(team=_team(obs.team, language), left=_agents_left(obs, language)),
        _revealed(obs, language),
        _history(obs.history, language),
    ]
    sudden = obs.phase == "sudden_death"
    if sudden:  # RULES 2.3 (not Duet's 3.9: no partner, and no holding back)
        lines.append(t["cn_sudden_death"])
    elif obs.variant == "assassin_ending":  # the variant's rule, then the clue as in any game
        lines.append(t["cn_assassin_ending_guess"])
    if not sudden and obs.current_clue is not None:
        word, number = obs.current_clue
        lines.append(t["clue_now"].format(word=word, number=number, correct=obs.guesses_this_turn))
        if obs.guesses_left is not None:
            lines.append(t["guesses_left"].format(left=obs.guesses_left))
    lines.append(t["guessable"].format(words=_join(obs.words[i] for i in obs.hidden())))
    lines.append(t["your_guess_no_stop" if sudden else "your_guess"])
    return [_system(t["guesser"].format(duet="")), *_example(t, "guess"), _user(lines)]


# ----- Spy's Word --------------------------------------------------------------------------------------
def _spyword_view(obs, language: str, spies: int, ghost: bool) -> list[str]:
    from agents.spyword.bots import told_role

    t = texts(language)
    roles = ROLES["ko" if language == "ko" else "en"]
    lines = [t["sw_seat"].format(seat=obs.seat, seats=_join(obs.remaining), spies=spies,
                                 ghost=t["yes"] if ghost else t["no"])]
    lines.append(t["sw_word"].format(word=obs.word) if obs.word is not None else t["sw_no_word"])
    role = told_role(obs)  # a citizen when the spies are told their role and this seat is told none (5.14)
    if role is not None and obs.word is not None:
        lines.append(t["sw_role"].format(role=roles.get(role, role)))
    clues = [f"{c.get('round', '?')}: {c.get('seat', '?')}: {c['clue']}" for c in obs.clues if c.get("clue") is not None]
    lines.append(t["sw_clues"].format(lines="\n".join("- " + c for c in clues)) if clues else t["sw_no_clues"])
    if obs.eliminated:
        gone = [e["seat"] + (f" ({roles.get(e['role'], e['role'])})" if e.get("role") else "")
                for e in obs.eliminated]
        lines.append(t["sw_eliminated"].format(lines=_join(gone)))
    if obs.votes:
        lines.append(t["sw_votes"].format(lines="; ".join(_vote_text(v) for v in obs.votes)))
    return lines


def _vote_text(vote: dict) -> str:
    """A finished vote as the display allows (who voted whom, or only the counts)."""
    parts = []
    for key, value in vote.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k}->{v}" for k, v in value.items())
        elif isinstance(value, (list, tuple)):
            value = ", ".join(map(str, value))
        parts.append(f"{key}={value}")
    return " ".join(parts)


def spyword_messages(obs, language: str, kind: str, spies: int, ghost: bool) -> list[dict]:
    """A Spy's Word seat's prompt for `kind` ("clue", "vote", "ghost_guess"): its own word, what it
    is told of its own role, the public clues, eliminations and votes; never another seat's word
    or role (they are not in the observation)."""
    t = texts(language)
    lines = _spyword_view(obs, language, spies, ghost)
    if kind == "clue":
        lines.append(t["spyword_clue_q"])
    elif kind == "vote":
        cands = [c for c in obs.vote_candidates if c != obs.seat]
        lines.append(t["spyword_vote_q"].format(cands=_join(cands), pass_=t["spyword_pass"] if obs.pass_allowed else "",
                                                example=cands[0] if cands else "p1"))
    else:
        lines.append(t["spyword_ghost_q"])
    return [_system(t["spyword"]), *_example(t, "sw_" + kind), _user(lines)]


def retry_message(reason: str, answer_format: str, language: str) -> dict:
    t = texts(language)
    return {"role": "user", "content": t["retry"].format(reason=reason, format=t[answer_format])}


def observation_messages(obs: Any, role: str, language: str) -> list[dict]:
    """The prompt of a Codenames-family seat for `role` ("spymaster" or "guesser")."""
    from .parse import observation_family

    family = observation_family(obs)
    if family == "duet":
        return duet_spymaster_messages(obs, language) if role == "spymaster" else duet_guesser_messages(obs, language)
    return codenames_spymaster_messages(obs, language) if role == "spymaster" else \
        codenames_guesser_messages(obs, language)
