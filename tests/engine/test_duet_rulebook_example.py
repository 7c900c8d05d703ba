"""The rulebook's worked example (seed 000, 예시): 점심,3 / 피라미드,2 / 뽑기,2.  RULES 3.5-3.7"""

from conftest import make_key
from engine import Clue, Guess, Stop
from engine.duet import DuetState

WORDS = ["짜장면", "베트남", "스핑크스", "인형", "샐러드", "콜라", "김치", "설탕", "폭풍", "우비",
         "사과", "뿌리", "아마존", "물", "거북", "눈사람", "피아노", "병원", "달", "우산",
         "기차", "학교", "사자", "바다", "연필"]
# Dugi is seat A, Hori seat B. What the example tells of the key; the rest is filled validly.
CELLS = {
    0: ("G", "N"),  # 짜장면: green for Dugi
    1: ("N", "G"),  # 베트남: bystander for Dugi, green for Hori
    2: ("G", "G"),  # 스핑크스: green on both sides
    3: ("G", "N"), 4: ("G", "N"), 6: ("G", "N"), 7: ("G", "N"),  # 인형, 샐러드, 김치, 설탕
    5: ("X", "N"),  # 콜라: an assassin on Dugi's side
}


def test_rulebook_worked_example():  # RULES 3.5, 3.6, 3.7
    s = DuetState(WORDS, make_key(CELLS))
    s.apply(Clue("A", "점심", 3))
    s.apply(Guess("B", "짜장면"))
    assert s.green_covered[0]
    s.apply(Guess("B", "베트남"))  # a bystander for Dugi: token, turn over
    assert s.marks[1] == {"B"} and s.phase == "clue" and s.tokens_left == 8

    s.apply(Clue("B", "피라미드", 2))
    s.apply(Guess("A", "스핑크스"))
    s.apply(Guess("A", "베트남"))  # the token card is green on Hori's side (RULES 3.7)
    assert s.green_covered[1]
    s.apply(Stop("A"))
    assert s.tokens_left == 7

    s.apply(Clue("A", "뽑기", 2))
    for word in ("인형", "샐러드", "김치", "설탕"):
        s.apply(Guess("B", word))
    s.apply(Stop("B"))
    # "앞으로 6번의 차례가 남아있고": six turns left, seven agents found.
    assert s.tokens_left == 6
    assert s.greens_found == 7
    assert s.outcome().phase == "playing"
    assert s.key.a[WORDS.index("콜라")] == "X"  # the assassin Hori hovered over was avoided
