"""Everything `cnlab play` says to the person, in English and Korean, in one table.

A Korean board (`--lang ko`) gets every prompt, help line, notice, result line and error in Korean;
an English board in English. `say(lang, key, **fields)` looks a line up and fills it in. The record
keeps the engine's own (English) words: `play.ended`, statuses and loss reasons; the screen shows
their translation (`reason(lang, ...)`), with the machine word kept in the result line, so that it
can be compared with `cnlab replay`.

Refusals of the engine (`IllegalAction`) are worded by kind in `engine.refusals` (English and
Korean, the web pages' table too); `engine_refusal()` shows them in the board's language. The clue
filter's verdicts are already in the board's language (engine.clues.messages).
"""

from __future__ import annotations


LANGUAGES = ("en", "ko")

TEXT: dict[str, dict[str, str]] = {
    "en": {
        # ----- shared ---------------------------------------------------------------------------
        "loading_partner": "Loading the partner ({spec})…",
        "loading_referee": "Loading the clue referee…",
        "filter_unavailable": "The clue filter is unavailable ({why}); only basic clue checks apply.",
        "basic_one_word": "a clue is one word: {word!r}",
        "basic_visible": "a visible code word, or a word containing one, may not be the clue: {word}",
        "refused": "Refused (RULES {rule}): {message}",
        "refused_retype": "Refused (RULES {rule}): {message} Type another clue.",
        "you_clue": "You: clue {word} {number}.",
        "bot_clue": "Bot: clue {word} {number}.",
        "bot_thinking": "Bot is thinking of a clue…",
        "bot_failed": "The bot failed: {error}",
        "saved": "Record saved to {path}\nReplay it with: cnlab replay {path}",
        "not_saved": "Could not save the record to {path}: {error}",
        "save_failed": ("Could not save the record to {path}: {error}. The game goes on; saving is tried "
                        "again after each move and at the end."),
        "record_claimed": "The game is saved to {path}",
        "record_elsewhere": "{path} holds a saved game; this one is saved to {claimed}",
        "left": "Game left unfinished ({why}).",
        "you": "You",
        "bot": "Bot",
        "help_common": "'help' or '?' shows this, 'quit' saves the record and leaves, Ctrl-C too.",
        "meant": "Bot meant ",
        "meant_for": " for: ",
        "meant_none": " for: (no targets given)",
        "not_found": "(not found)",
        "meant_hidden": "{n} more not found yet (shown at the end)",
        "meant_hidden_left": "{n} more not found (not shown: the game is unfinished)",
        "meant_uncounted": "any others shown at the end",
        "meant_uncounted_left": "any others not shown (the game is unfinished)",
        "meant_header": "The bot's clues and what it meant (✓ found on that clue):",
        "no_clues": "No clues yet.",
        # ----- parsing --------------------------------------------------------------------------
        "err_first": "type 'me' to give the first clue or 'bot' to let the bot start",
        "err_role": "type 'guesser' or 'spymaster'",
        "err_empty": "type something, or 'help'",
        "err_clue_turn": "it is your turn to give a clue: type WORD NUMBER, e.g. ocean 2",
        "err_clue_form": "a clue is a word and a number: type WORD NUMBER, e.g. ocean 2",
        "err_clue_number": "the clue's number must be 0..9, not {number!r} (type WORD NUMBER)",
        "err_cn_clue_number": "the clue's number must be 0..9 or unlimited, not {number!r} (type WORD NUMBER)",
        "err_keyword_card": "{line!r} is a card too: type 'guess {card}' to guess it, or '{alias}' to {what}",
        "err_keyword_card_only": "{line!r} is a card too: type 'guess {card}' to guess it",
        "what_pass": "pass",
        "what_stop": "stop",
        "err_not_clue_turn": "it is not your turn to give a clue: guess a card (word or B3)",
        "err_name_card": "name a card: a word or a coordinate such as B3",
        "err_off_board": "{text} is off the board: columns A-{last}, rows 1-{rows}",
        "err_ambiguous": "{text!r} could be {cards}: type more of it",
        "err_several": "{text!r} fits {count} cards: {cards}. Type another word of the description, or the coordinate",
        "err_covered_only": "{text!r} names only covered cards: {cards}",
        "err_not_on_board": "{text!r} is not on the board (type a board word or a coordinate such as B3)",
        "and_more": "and {count} more",
        # ----- Duet -----------------------------------------------------------------------------
        "duet_title": ("Codenames Duet · seed {seed} · {language} · {mission}, {tokens} tokens · "
                       "you A, bot B ({partner})"),
        "mission": "mission {name}",
        "base_game": "base game",
        "ask_first": "Who gives the first clue? me/bot (Enter = me, ? = help) > ",
        "ask_clue": "Your clue: WORD NUMBER (? = help) > ",
        "ask_guess": "Bot's clue {word} {number}: guess a word or B3{more} (? = help) > ",
        "or_stop": " or stop",
        "ask_sudden": "SUDDEN DEATH: guess a word or B3, or pass (? = help) > ",
        "bot_side_done": "The bot's nine agents are all found: from now on you only give clues (3.8).",
        "duet_number": "a Duet clue number is 0..9, not {number}.",
        "cn_number": "a clue number is 0..9 or unlimited, not {number}.",
        "unlimited": "unlimited",
        "stop_token": "{who}: stop (one token taken).",
        "guess_report": "{who}: guess {word} ({where}): {result}",
        "res_green": "an agent ✓",
        "res_bystander": "a bystander ✗ (turn over)",
        "res_bystander_lost": "a bystander ✗ (game over)",
        "res_assassin": "THE ASSASSIN",
        "mark_assassin": " ASSASSIN!",
        "sudden_nobody": "Nobody guesses in sudden death: the game ends unfinished.",
        "you_pass_bot_done": "You pass, and the bot has nothing left to guess.",
        "you_done_bot_may": "You have nothing left to guess; the bot may guess.",
        "bot_holds": "Bot holds back.",
        "duet_result": "Result: {phase} · score {score} · agents {found}/15 · tokens left {tokens} · loss {loss}",
        "duet_won": "You won! All 15 agents found. Score {score} (RULES 3.11).",
        "duet_won_unscored": "You won! All 15 agents found (RULES 3.11 scores the 9-token game only).",
        "duet_lost": "You lost: {reason}.",
        "duet_unfinished": "The game ends unfinished in sudden death (a loss in benchmarks).",
        "status_found": "Agents found {found}/15",
        "status_tokens": " · Tokens left {tokens}",
        "status_mistakes": " (check {check}, bystander {bystander})",
        "status_bot_done": " · bot's side done",
        "status_sudden": " · SUDDEN DEATH",
        "duet_legend": "G agent  X assassin  - bystander (your side)  ✓ found  * your miss  + bot's miss",
        "hist_sudden": "Sudden death:",
        "hist_stop": " (stop)",
        "hist_penalty": " [penalty {result}]",
        "hist_earlier": "(+{count} earlier clues) ",
        "reveal_header": "Both sides (left: yours, right: the bot's; G agent, X assassin, - bystander):",
        "side_a": "Side A (you): {key}",
        "side_b": "Side B (bot): {key}",
        "help_coordinates": "Coordinates: column letter + row number, e.g. B3 = column B, row 3 (A-E left to right, "
                            "1-5 top to bottom).",
        "help_first": "Type 'me' (or Enter) to give the first clue, or 'bot' to let the bot start.",
        "help_clue": ("Give a clue: WORD NUMBER (or 'clue WORD NUMBER'), e.g. 'ocean 2'. One word, no board word "
                      "or part of one (RULES 4); the number is 0..9. The bot guesses on your side's key."),
        "help_guess": ("Guess a card: a board word, the start of one, or a coordinate such as B3 ('guess WORD' "
                       "also works). A green card lets you guess again; a bystander ends the turn; an "
                       "assassin loses. 'stop' ends the turn after at least one correct guess."),
        "help_sudden": ("Sudden death: no more clues. Guess a card (a miss loses at once), or 'pass' to let the "
                        "bot guess. If both of you hold back, the game ends unfinished."),
        # ----- Codenames / Pictures -------------------------------------------------------------
        "cn_name": "Codenames",
        "pic_name": "Codenames Pictures",
        "cn_title": "{name} two-player · seed {seed} · {language} · you: {team} {role} · bot: {partner}",
        "role_guesser": "guesser",
        "role_spymaster": "spymaster",
        "team_red": "red",
        "team_blue": "blue",
        "ask_role": "Play as guesser or spymaster? (Enter = guesser, ? = help) > ",
        "cn_ask_clue": "Your clue: WORD NUMBER (? = help) > ",
        "cn_ask_guess": "Clue {word} {number} ({more}): guess or stop (? = help) > ",
        "guesses_left": "{left} guesses left",
        "no_limit": "no limit",
        "ask_cover": "Cover an agent of the opponent ({team}) (? = help) > ",
        "cn_status": "Agents left: yours ({team}) {ours}, opponent {theirs} · turns {turns}",
        "cn_legend_rows": "Rows 1-{rows}, columns A-{last} · ",
        "cn_legend_key": "R red  B blue  N bystander  X assassin  (lower case: covered)",
        "cn_legend_plain": "covered cards show their letter in lower case",
        "you_cover": "You cover {card}.",
        "bot_covers": "Bot covers an opponent agent: {card}.",
        "cn_stop": "{who}: stop.",
        "cn_guess_report": "{who}: guess {card}: {result}",
        "res_own": "your agent ✓",
        "res_opponent": "an opponent agent ✗",
        "res_cn_bystander": "bystander",
        "res_cn_assassin": "THE ASSASSIN",
        "cn_result": "Result: {status} · winner {winner} · score {score} · turns {turns} · loss {loss}",
        "cn_won": "You won! Score {score} (opponent agents left). {label}",
        "cn_lost": "You lost ({reason}).",
        "played_guesser": "You played the guesser; the bot ({spec}) gave the clues.",
        "played_spymaster": "You played the spymaster; the bot ({spec}) guessed.",
        "your_clues_header": "Your clues and what the bot guessed on them:",
        "no_guesses": "(no guesses)",
        "hist_cover": " [cover {card}]",
        "help_role": "Type 'guesser' (the bot gives clues) or 'spymaster' (you give clues, the bot guesses).",
        "help_cn_clue": ("Give a clue: WORD NUMBER, e.g. 'ocean 2' (0..9 or unlimited). Your guesser may guess "
                         "NUMBER+1 cards; after 0 or unlimited, any number while the guesses are right."),
        "help_cn_guess": ("Guess a card by word, the start of it, or coordinate (B3). 'stop' ends the turn "
                          "after one guess. Your agents let you go on; anything else ends the turn or the game."),
        "help_pic_guess": ("Guess a card by a word of its description (e.g. 'monkey'), its coordinate (B3), or "
                           "its whole description. 'stop' ends the turn after one guess. Your agents let you go "
                           "on; anything else ends the turn or the game."),
        "help_cover": "Cover one agent of the virtual opponent (RULES 1.8): its word or coordinate.",
        "help_pic_cover": ("Cover one agent of the virtual opponent (RULES 1.8): a word of its description or "
                           "its coordinate."),
        "help_cn_common": ("Coordinates: column letter + row number (A-{last}, 1-{rows}). 'quit' or Ctrl-C saves "
                           "the record and leaves."),
    },
    "ko": {
        # ----- shared ---------------------------------------------------------------------------
        "loading_partner": "파트너를 불러오는 중입니다 ({spec})…",
        "loading_referee": "힌트 심판을 불러오는 중입니다…",
        "filter_unavailable": "힌트 필터를 쓸 수 없습니다({why}). 기본 검사만 합니다.",
        "basic_one_word": "힌트는 한 단어여야 합니다: {word!r}",
        "basic_visible": "공개된 코드네임이나 그것이 들어 있는 단어는 힌트로 줄 수 없습니다: {word}",
        "refused": "거절 (규칙 {rule}): {message}",
        "refused_retype": "거절 (규칙 {rule}): {message} 다른 힌트를 입력하세요.",
        "you_clue": "나: 힌트 {word} {number}.",
        "bot_clue": "봇: 힌트 {word} {number}.",
        "bot_thinking": "봇이 힌트를 생각하는 중입니다…",
        "bot_failed": "봇이 오류를 냈습니다: {error}",
        "saved": "기록을 저장했습니다: {path}\n다시 보기: cnlab replay {path}",
        "not_saved": "기록을 {path}에 저장하지 못했습니다: {error}",
        "save_failed": ("기록을 {path}에 저장하지 못했습니다: {error}. 게임은 계속됩니다. 수마다, 그리고 끝날 때 "
                        "다시 저장해 봅니다."),
        "record_claimed": "이 게임은 {path}에 저장됩니다",
        "record_elsewhere": "{path}에는 저장된 게임이 있어 이 게임은 {claimed}에 저장됩니다",
        "left": "게임을 끝내지 않고 나갔습니다 ({why}).",
        "you": "나",
        "bot": "봇",
        "help_common": "'도움말'(help, ?)은 이 설명을, '종료'(quit)는 기록을 저장하고 나갑니다. Ctrl-C도 같습니다.",
        "meant": "봇의 의도 ",
        "meant_for": ": ",
        "meant_none": ": (대상 없음)",
        "not_found": "(못 찾음)",
        "meant_hidden": "아직 못 찾은 {n}개 (끝에 공개)",
        "meant_hidden_left": "못 찾은 {n}개 (게임이 끝나지 않아 공개하지 않음)",
        "meant_uncounted": "나머지가 있다면 끝에 공개",
        "meant_uncounted_left": "나머지가 있다면 공개하지 않음 (게임이 끝나지 않음)",
        "meant_header": "봇의 힌트와 그 의도 (✓ 그 힌트에서 찾은 카드):",
        "no_clues": "아직 힌트가 없습니다.",
        # ----- parsing --------------------------------------------------------------------------
        "err_first": "첫 힌트를 직접 주려면 '나', 봇이 먼저 하게 하려면 '봇'을 입력하세요",
        "err_role": "'요원'(guesser) 또는 '스파이마스터'(spymaster)를 입력하세요",
        "err_empty": "무언가를 입력하거나 '도움말'을 입력하세요",
        "err_clue_turn": "힌트를 줄 차례입니다: 단어 숫자 형식으로 입력하세요 (예: 바다 2)",
        "err_clue_form": "힌트는 단어와 숫자입니다: 단어 숫자 형식으로 입력하세요 (예: 바다 2)",
        "err_clue_number": "힌트 숫자는 0~9여야 합니다 ({number!r} 아님). 단어 숫자 형식으로 입력하세요",
        "err_cn_clue_number": "힌트 숫자는 0~9 또는 무제한이어야 합니다 ({number!r} 아님). 단어 숫자 형식으로 입력하세요",
        "err_keyword_card": "{line!r}은(는) 카드이기도 합니다: 추측하려면 '추측 {card}', {what} '{alias}'을(를) 입력하세요",
        "err_keyword_card_only": "{line!r}은(는) 카드이기도 합니다: 추측하려면 '추측 {card}'을(를) 입력하세요",
        "what_pass": "패스하려면",
        "what_stop": "멈추려면",
        "err_not_clue_turn": "힌트를 줄 차례가 아닙니다: 카드를 추측하세요 (단어 또는 B3)",
        "err_name_card": "카드를 말해 주세요: 단어 또는 B3 같은 좌표",
        "err_off_board": "{text}은(는) 테이블 밖입니다: 열 A-{last}, 행 1-{rows}",
        "err_ambiguous": "{text!r}은(는) {cards} 중 하나일 수 있습니다: 더 입력하세요",
        "err_several": "{text!r}에 맞는 카드가 {count}장입니다: {cards}. 설명의 다른 단어나 좌표를 입력하세요",
        "err_covered_only": "{text!r}에 맞는 카드는 이미 덮였습니다: {cards}",
        "err_not_on_board": "{text!r}은(는) 테이블에 없습니다 (테이블의 단어나 B3 같은 좌표를 입력하세요)",
        "and_more": "외 {count}장",
        # ----- Duet -----------------------------------------------------------------------------
        "duet_title": "코드네임 듀엣 · 시드 {seed} · {language} · {mission}, 타이머 토큰 {tokens}개 · 나 A, 봇 B ({partner})",
        "mission": "미션 {name}",
        "base_game": "기본 게임",
        "ask_first": "누가 첫 힌트를 줄까요? 나/봇 (Enter = 나, ? = 도움말) > ",
        "ask_clue": "내 힌트: 단어 숫자 (? = 도움말) > ",
        "ask_guess": "봇의 힌트 {word} {number}: 단어나 B3로 추측{more} (? = 도움말) > ",
        "or_stop": ", 또는 그만",
        "ask_sudden": "서든 데스: 단어나 B3로 추측, 또는 패스 (? = 도움말) > ",
        "bot_side_done": "봇 쪽의 요원 아홉 명을 모두 찾았습니다: 이제부터 나는 힌트만 줍니다 (3.8).",
        "duet_number": "듀엣의 힌트 숫자는 0~9입니다 ({number} 아님).",
        "cn_number": "힌트 숫자는 0~9 또는 무제한입니다 ({number} 아님).",
        "unlimited": "무제한",
        "stop_token": "{who}: 그만 (토큰 하나 사용).",
        "guess_report": "{who}: 추측 {word} ({where}): {result}",
        "res_green": "요원 ✓",
        "res_bystander": "민간인 ✗ (차례 끝)",
        "res_bystander_lost": "민간인 ✗ (게임 끝)",
        "res_assassin": "암살자!",
        "mark_assassin": " 암살자!",
        "sudden_nobody": "서든 데스에서 아무도 추측하지 않습니다: 게임이 끝나지 않은 채 끝납니다.",
        "you_pass_bot_done": "내가 패스했고, 봇은 더 추측할 카드가 없습니다.",
        "you_done_bot_may": "나는 더 추측할 카드가 없습니다: 봇이 추측할 수 있습니다.",
        "bot_holds": "봇이 추측하지 않습니다.",
        "duet_result": "결과: {phase} · 점수 {score} · 요원 {found}/15 · 남은 토큰 {tokens} · 패배 이유 {loss}",
        "duet_won": "이겼습니다! 요원 15명을 모두 찾았습니다. 점수 {score} (규칙 3.11).",
        "duet_won_unscored": "이겼습니다! 요원 15명을 모두 찾았습니다 (규칙 3.11: 점수는 시간 토큰 9개 게임만 셉니다).",
        "duet_lost": "졌습니다: {reason}.",
        "duet_unfinished": "서든 데스에서 끝나지 않은 채 게임이 끝났습니다 (벤치마크에서는 패배).",
        "status_found": "찾은 요원 {found}/15",
        "status_tokens": " · 남은 토큰 {tokens}",
        "status_mistakes": " (확인 {check}, 민간인 {bystander})",
        "status_bot_done": " · 봇 쪽 완료",
        "status_sudden": " · 서든 데스",
        "duet_legend": "G 요원  X 암살자  - 민간인 (내 쪽)  ✓ 찾음  * 내 실수  + 봇의 실수",
        "hist_sudden": "서든 데스:",
        "hist_stop": " (그만)",
        "hist_penalty": " [벌칙 {result}]",
        "hist_earlier": "(이전 힌트 {count}개 생략) ",
        "reveal_header": "양쪽 열쇠 (왼쪽: 내 쪽, 오른쪽: 봇 쪽; G 요원, X 암살자, - 민간인):",
        "side_a": "A 쪽 (나): {key}",
        "side_b": "B 쪽 (봇): {key}",
        "help_coordinates": "좌표: 열 글자 + 행 숫자. 예: B3 = B열 3행 (A-E는 왼쪽부터, 1-5는 위부터).",
        "help_first": "첫 힌트를 직접 주려면 '나'(또는 Enter), 봇이 먼저 하게 하려면 '봇'을 입력하세요.",
        "help_clue": ("힌트 주기: 단어 숫자 (또는 '힌트 단어 숫자'), 예: '바다 2'. 한 단어이며, 테이블의 단어나 "
                      "그 일부는 안 됩니다 (규칙 4). 숫자는 0~9. 봇은 내 쪽 열쇠로 추측합니다."),
        "help_guess": ("카드 추측: 테이블의 단어, 그 앞부분, 또는 B3 같은 좌표 ('추측 단어'도 됩니다). 요원이면 "
                       "계속 추측하고, 민간인이면 차례가 끝나고, 암살자면 집니다. 한 번 이상 맞힌 뒤 '그만'으로 "
                       "차례를 끝냅니다."),
        "help_sudden": ("서든 데스: 더 이상 힌트가 없습니다. 카드를 추측하거나 (틀리면 바로 집니다) '패스'로 봇에게 "
                        "넘깁니다. 둘 다 추측하지 않으면 게임이 끝나지 않은 채 끝납니다."),
        # ----- Codenames / Pictures -------------------------------------------------------------
        "cn_name": "코드네임",
        "pic_name": "코드네임 픽처스",
        "cn_title": "{name} 2인용 · 시드 {seed} · {language} · 나: {team} {role} · 봇: {partner}",
        "role_guesser": "요원",
        "role_spymaster": "스파이마스터",
        "team_red": "빨강 팀",
        "team_blue": "파랑 팀",
        "ask_role": "요원(추측)과 스파이마스터(힌트) 중 무엇을 할까요? (Enter = 요원, ? = 도움말) > ",
        "cn_ask_clue": "내 힌트: 단어 숫자 (? = 도움말) > ",
        "cn_ask_guess": "힌트 {word} {number} ({more}): 추측 또는 그만 (? = 도움말) > ",
        "guesses_left": "{left}번 추측 가능",
        "no_limit": "제한 없음",
        "ask_cover": "상대({team})의 요원 하나를 덮으세요 (? = 도움말) > ",
        "cn_status": "남은 요원: 우리 ({team}) {ours}, 상대 {theirs} · 사용한 차례 {turns}",
        "cn_legend_rows": "행 1-{rows}, 열 A-{last} · ",
        "cn_legend_key": "R 빨강  B 파랑  N 민간인  X 암살자  (소문자: 덮임)",
        "cn_legend_plain": "덮인 카드는 글자를 소문자로 보여 줍니다",
        "you_cover": "내가 {card}을(를) 덮습니다.",
        "bot_covers": "봇이 상대 요원을 덮습니다: {card}.",
        "cn_stop": "{who}: 그만.",
        "cn_guess_report": "{who}: 추측 {card}: {result}",
        "res_own": "우리 요원 ✓",
        "res_opponent": "상대 요원 ✗",
        "res_cn_bystander": "민간인",
        "res_cn_assassin": "암살자!",
        "cn_result": "결과: {status} · 승리 팀 {winner} · 점수 {score} · 차례 {turns} · 끝난 이유 {loss}",
        "cn_won": "이겼습니다! 점수 {score} (남은 상대 요원). {label}",
        "cn_lost": "졌습니다 ({reason}).",
        "played_guesser": "나는 요원(추측)을 했고, 봇({spec})이 힌트를 주었습니다.",
        "played_spymaster": "나는 스파이마스터(힌트)를 했고, 봇({spec})이 추측했습니다.",
        "your_clues_header": "내 힌트와 봇이 그 힌트로 추측한 카드:",
        "no_guesses": "(추측 없음)",
        "hist_cover": " [덮음 {card}]",
        "help_role": "'요원'(봇이 힌트를 줍니다) 또는 '스파이마스터'(내가 힌트를 주고 봇이 추측합니다)를 입력하세요.",
        "help_cn_clue": ("힌트 주기: 단어 숫자, 예: '바다 2' (0~9 또는 무제한). 요원은 숫자+1장까지 추측할 수 "
                         "있습니다. 0이나 무제한이면 맞히는 동안 제한 없이 추측합니다."),
        "help_cn_guess": ("카드 추측: 단어, 그 앞부분, 또는 좌표 (B3). 한 번 추측한 뒤 '그만'으로 차례를 끝냅니다. "
                          "우리 요원이면 계속하고, 그 밖의 카드는 차례나 게임을 끝냅니다."),
        "help_pic_guess": ("카드 추측: 설명의 한 단어 (예: '원숭이', 'monkey'), 좌표 (B3), 또는 설명 전체. 한 번 "
                           "추측한 뒤 '그만'으로 차례를 끝냅니다. 우리 요원이면 계속하고, 그 밖의 카드는 차례나 "
                           "게임을 끝냅니다."),
        "help_cover": "가상의 상대 요원 하나를 덮습니다 (규칙 1.8): 그 단어나 좌표.",
        "help_pic_cover": "가상의 상대 요원 하나를 덮습니다 (규칙 1.8): 설명의 한 단어나 좌표.",
        "help_cn_common": "좌표: 열 글자 + 행 숫자 (A-{last}, 1-{rows}). '종료'나 Ctrl-C는 기록을 저장하고 나갑니다.",
    },
}

# how the screen words the engine's statuses and reasons (the record keeps the English word)
REASONS: dict[str, dict[str, str]] = {
    "en": {
        "assassin": "an assassin was touched", "sudden_death_miss": "a miss in sudden death",
        "out_of_tokens": "the supply could not pay a token",
        "opponent_finished": "the opponent's agents were all covered",
        "interrupted": "interrupted", "end of input": "end of input", "quit": "quit",
    },
    "ko": {
        "assassin": "암살자를 건드렸습니다", "sudden_death_miss": "서든 데스에서 틀렸습니다",
        "out_of_tokens": "토큰이 모자랐습니다", "opponent_finished": "한 팀의 요원이 모두 덮였습니다",
        "interrupted": "중단됨", "end of input": "입력 끝", "quit": "종료",
        "both held back in sudden death": "서든 데스에서 둘 다 추측하지 않음",
        "playing": "진행 중", "won": "승리", "lost": "패배", "sudden_death": "서든 데스", "finished": "끝남",
        "red": "빨강", "blue": "파랑",
    },
}

# the engine's refusals a person can cause at a prompt, in Korean (English: the engine's own words)
def say(lang: str, key: str, /, **fields) -> str:
    """The line `key` in the board's language (English for any other), with `fields` filled in."""
    table = TEXT.get(lang, TEXT["en"])
    return table.get(key, TEXT["en"][key]).format(**fields)


def clue_number(lang: str, number) -> str:
    """A clue's number on the screen: the expert UNLIMITED (RULES 1.2) in the board's language
    (`무제한`); the record keeps the engine's word."""
    return say(lang, "unlimited") if number == "unlimited" else str(number)


def reason(lang: str, word: str | None) -> str:
    """How the screen words a status, loss reason or the way a game ended."""
    if word is None:
        return "-"
    table = REASONS.get(lang, REASONS["en"])
    if word.startswith("bot error: "):
        return ("봇 오류: " if lang == "ko" else "bot error: ") + word[len("bot error: "):]
    return table.get(word, word)


def machine_word(lang: str, word: str | None) -> str:
    """A status or reason in the result line: the record's word, translated alongside on Korean boards."""
    if word is None:
        return "-"
    if lang != "ko" or word not in REASONS["ko"]:
        return word
    return f"{REASONS['ko'][word]}({word})"


def refusal(lang: str, rule: str, message: str, retype: bool = False) -> str:
    """`Refused (RULES 3.7): 'x' is covered by an agent` (Korean boards: `거절 (규칙 3.7): ...`), for a
    reason already in the board's language (the clue filter's, or `engine_refusal`'s)."""
    if retype and message and not message.rstrip().endswith((".", "!", "?", "…")):
        message = message.rstrip() + "."   # the reason ends its sentence before "Type another clue."
    return say(lang, "refused_retype" if retype else "refused", rule=rule, message=message)


def engine_refusal(lang: str, exc, retype: bool = False) -> str:
    """An engine's IllegalAction as `refusal` shows it: worded in the board's language from the
    engines' one table of refusals (`engine.refusals.refusal_text`, as the web pages word them); a
    refusal the table lacks keeps its English after the Korean lead-in."""
    from engine.refusals import refusal_text

    return refusal(lang, exc.rule, refusal_text(exc, lang), retype)
