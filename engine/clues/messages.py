"""Short verdict messages, in the board's language (ko) or English (en)."""

from __future__ import annotations

_MESSAGES = {
    "ok": ("좋은 힌트입니다.", "Legal clue."),
    "number": ("힌트 숫자는 0~9 또는 무제한이어야 합니다: {number}", "The clue number must be 0..9 or unlimited, not {number}."),
    "empty": ("힌트가 비어 있습니다.", "The clue is empty."),
    "one_word": ("힌트는 한 단어여야 합니다(띄어쓰기·하이픈 불가): {clue}", "A clue is one word, without spaces or hyphens: {clue}."),
    "script_ko": ("우리말(한글)로 된 힌트만 쓸 수 있습니다: {clue}", "A Korean board takes Hangul clues only: {clue}."),
    "script_en": ("영어 단어만 쓸 수 있습니다: {clue}", "An English board takes English (Latin-letter) clues only: {clue}."),
    "letter": ("글자나 자음·모음을 힌트로 줄 수 없습니다: {clue}", "A clue may not point at letters: {clue}."),
    "letter_word": ("글자·자모·글자 수를 가리키는 힌트는 쓸 수 없습니다: {clue}", "A clue may not point at letters or letter counts: {clue}."),
    "position": ("테이블 위치를 힌트로 줄 수 없습니다: {clue}", "A clue may not point at board positions: {clue}."),
    "number_word": ("숫자를 글자 수 힌트로 쓸 수 없습니다(선택 규칙): {clue}", "Number words are not allowed as clues under the agreed options: {clue}."),
    "syllable": ("공개된 코드네임 '{visible}'의 한 글자를 힌트로 줄 수 없습니다: {clue}", "A clue may not be one syllable (letter) of the visible code word {visible}: {clue}."),
    "visible": ("공개된 코드네임은 힌트로 줄 수 없습니다: {clue}", "A visible code word may not be the clue: {clue}."),
    "numeral_word": ("'{clue}'은(는) 숫자로 쓴 공개된 코드네임 '{visible}'을(를) 글로 쓴 것입니다.", "{clue} is the visible code word {visible} written in words."),
    "numeral": ("'{clue}'은(는) 공개된 코드네임 '{visible}'을(를) 숫자로 쓴 것입니다.", "{clue} is the visible code word {visible} written in digits."),
    "inflection": ("공개된 코드네임 '{visible}'의 다른 형태입니다: {clue}", "{clue} is a form of the visible code word {visible}."),
    "contains": ("공개된 코드네임 '{visible}'이(가) 들어 있는 단어입니다: {clue}", "{clue} contains the visible code word {visible}."),
    "part": ("공개된 합성어 '{visible}'의 일부입니다: {clue}", "{clue} is a part of the visible compound {visible}."),
    "shares": ("공개된 합성어 '{visible}'의 일부('{part}')가 들어 있습니다: {clue}", "{clue} contains {part}, a part of the visible compound {visible}."),
    "variant": ("'{clue}'은(는) 공개된 코드네임 '{visible}'과(와) 같은 단어(다른 표기)입니다.", "{clue} is a variant spelling of the visible code word {visible}."),
    "loanword": ("'{clue}'은(는) 외래어 음역입니다. 우리말 '{native}'이(가) 있습니다.", "{clue} is a transliteration; the native word is {native}."),
    "transliteration": ("'{clue}'은(는) 영어 '{source}'을(를) 한글로 적은 말입니다. 우리말로 된 힌트를 주세요(외래어는 우리말이 없을 때만).", "{clue} is the English word {source} written in Hangul; a loanword is a clue only where Korean has no word for it."),
    "foreign": ("다른 언어의 단어는 힌트로 줄 수 없습니다({lang}): {clue}", "{clue} is a word of another language ({lang}); clues are in the board's language only."),
    "not_one_word_form": ("'{clue}'은(는) 공개된 코드네임 '{visible}'을(를) 띄어 쓰거나 하이픈으로 나눈 것입니다(한 단어도 아닙니다).", "{clue} is the visible code word {visible} split by a space or hyphen (and not one word)."),
    "abbreviation": ("'{clue}'은(는) 약어({initialism})입니다. 약어는 미리 합의했을 때만 쓸 수 있습니다.", "{clue} is an abbreviation said letter by letter ({initialism}); abbreviations are a clue only when agreed before the game."),
    "listed_abbreviation": ("'{clue}'은(는) '{full}'의 준말(약어)입니다. 약어는 미리 합의했을 때만 쓸 수 있습니다.", "{clue} is an abbreviation ({full}); abbreviations are a clue only when agreed before the game."),
    "invented": ("사전에 없는 단어입니다: {clue}", "Not a known word (invented words are not allowed): {clue}."),
    "too_long": ("힌트는 한 단어입니다: {limit}자를 넘을 수 없습니다({length}자).", "A clue is one word: at most {limit} characters, not {length}."),
    "invisible": ("힌트에 보이지 않는 문자({code})가 들어 있습니다.", "A clue may not hold an invisible character ({code})."),
    "number_meaning": ("좋은 힌트입니다: '{clue}'은(는) 공개된 코드네임 '{visible}'의 뜻과 관련된 숫자입니다({why}).", "Legal clue: {clue} is a number that goes with the meaning of the visible code word {visible} ({why})."),
    "undecidable_count": ("판단할 수 없습니다: '{clue}'({value})이(가) 글자 수를 가리키는지 알 수 없습니다('{visible}'은(는) {value}글자, 규칙 4.1). 심판은 기본적으로 허용하고, 봇은 피합니다.", "Undecidable: {clue} ({value}) may count letters ({visible} has {value}, RULES 4.1); referees allow it by default, bots avoid it."),
    "undecidable_number_word": ("판단할 수 없습니다: '{clue}'은(는) 숫자여서 글자 수를 가리키는지 알 수 없습니다(규칙 4.1). 심판은 기본적으로 허용하고, 봇은 피합니다.", "Undecidable: {clue} is a number and may count letters (RULES 4.1); referees allow it by default, bots avoid it."),
    "undecidable_number": ("판단할 수 없습니다: 힌트 숫자 {number}이(가) 힌트의 일부일 수 있습니다('{visible}': {why}, 규칙 4.2). 심판은 기본적으로 허용하고, 봇은 피합니다.", "Undecidable: the number {number} may be part of the hint ({visible}: {why}, RULES 4.2); referees allow it by default, bots avoid it."),
    "invented_compound": ("없는 합성어는 만들 수 없습니다: {clue}", "Not an existing compound (invented compounds are not allowed): {clue}."),
}


def _one_line(value):
    """A word as a one-line message shows it: a line break, tab or other space but the plain one
    escaped (ice\\ncream), so that a verdict's message is one line whatever the clue held."""
    if not isinstance(value, str):
        return value
    return "".join(repr(ch)[1:-1] if ch.isspace() and ch != " " else ch for ch in value)


def message(key: str, language: str, **kw) -> str:
    ko, en = _MESSAGES[key]
    return (ko if language == "ko" else en).format(**{k: _one_line(v) for k, v in kw.items()})
