/* codenames-lab in the browser: plain JavaScript, no build step.
 *
 * Routes (in the address's #): #/ a new game, #/play/ID/TOKEN a seat of a game (the token is the
 * seat's key: it is the join link), #/games the games played, #/replay/ID a finished game move by
 * move. The server holds every state; this page only draws the view of its own seat and sends
 * moves over a WebSocket (docs/web.md).
 */
"use strict";

// ----- interface language ------------------------------------------------------------------------
const TEXT = {
  en: {
    nav_new: "New game", nav_games: "Games played", loading: "Loading…",
    new_title: "New game", game: "Game", board_lang: "Board language", lang_en: "English", lang_ko: "Korean",
    g_duet: "Codenames Duet", g_codenames: "Codenames", g_pictures: "Codenames Pictures",
    mode: "Players", mode_bot: "Me and a bot partner", mode_people: "Two people (a join link for the partner)",
    my_seat: "My seat", first: "First clue", first_me: "I give it", first_partner: "The bot gives it",
    setup: "Timer tokens / mission", base_game: "Base game, {n} tokens", mission_label: "Mission {name} ({t}-{m})",
    bot_spymaster: "Bot spymaster", bot_guesser: "Bot guesser", seed: "Deal seed (empty: random)",
    variant: "Variant", v_two_player: "Two-player: one team against a virtual opponent (RULES 1.8)",
    v_teams: "Two teams, four seats (RULES 1)", seat_kind: "{seat}", person: "Person", bot: "Bot",
    create: "Start the game", creating: "Dealing…",
    seat_A: "A", seat_B: "B", spymaster: "Spymaster", guesser: "Guesser",
    "red-spymaster": "Red spymaster", "red-guesser": "Red guesser", "blue-spymaster": "Blue spymaster",
    "blue-guesser": "Blue guesser",
    you_are: "You: {seat}", partner: "Partner", bot_label: "bot {spec}", person_label: "person",
    connected: "online", offline: "not connected", thinking: "{who} is thinking…",
    loading_bot: "{who} is loading its models (the first game takes a little while)…",
    join_links: "Join links: send this to the other player", copy: "Copy",
    your_clue: "Your clue", clue_word: "one word", give_clue: "Give the clue", stop: "Stop guessing",
    pass: "Let the partner guess", partner_first: "Let the bot give the first clue",
    turn_clue_you: "Your turn: give a clue (your green cards are the agents your partner must find).",
    turn_clue_first: "Give the first clue, or let the bot start.",
    turn_clue_team: "Your turn: give a clue to your team's guesser (the {team} agents).",
    turn_clue_other: "{who} gives a clue.", turn_guess_you: "Guess: click a card. Clue: {clue}",
    turn_guess_other: "{who} is guessing on {clue}.", turn_sd_you: "Sudden death: guess a card (a miss loses) or let the partner guess.",
    turn_sd_other: "Sudden death: {who} may guess.", turn_cover_you: "Cover one agent of the {team} team (click it).",
    turn_cover_other: "{who} covers a card.",
    agents_found: "Agents found", tokens: "Timer tokens", mistakes: "Mistakes", of: "{a} of {b}",
    check_side: "{n} check side, {m} bystander side", no_limit: "no limit",
    agents_left: "Agents left", guesses_left: "guesses left: {n}", unlimited: "unlimited",
    history: "Clues and guesses", bot_meant: "What the bot meant",
    meant: "{seat} meant {clue} for:", found: "found", found_later: "found later", not_found: "not found",
    no_targets: "(no targets given)", hidden_targets: "{n} more not found yet (shown when the game ends)", uncounted_targets: "any others shown when the game ends",
    ev_clue: "{seat}: clue {word} {number}", ev_guess: "{seat} touched {word}: {result}", ev_stop: "{seat} stopped",
    ev_penalty: "{seat}: clue refused ({result})", ev_cover: "{seat} covered {word} ({result})",
    ev_end_turn: "{seat}: turn over",
    r_green: "an agent ✓", r_bystander: "a bystander", r_assassin: "THE ASSASSIN",
    r_R: "red agent", r_B: "blue agent", r_N: "bystander", r_X: "THE ASSASSIN",
    refused: "Refused", rule: "RULES {rule}", error: "Error",
    won: "You won! All 15 agents found.", lost: "You lost: {reason}.", unfinished: "The game ended unfinished: {reason}.",
    score: "Score {score} (RULES 3.11)", score2: "Score {score}: {label}",
    loss_assassin: "an assassin was touched", loss_sudden_death_miss: "a miss in sudden death",
    loss_out_of_tokens: "no token left to pay", loss_opponent_finished: "the opponent's agents were all covered",
    team_won: "The {team} team won ({reason}).",
    keys: "The key card", key_side: "Side {seat}", key: "Key",
    new_game: "New game", replay_link: "Replay move by move", record_link: "Download the record",
    games_title: "Games played", g_id: "Game", g_game: "Game", g_lang: "Board", g_seats: "Seats", g_moves: "Moves",
    g_result: "Result", g_updated: "Last move", continue: "Continue", replay: "Replay", no_games: "No games yet.",
    replay_title: "Replay: {id}", start: "Deal", prev: "◀ Back", next: "Next ▶", move: "Move {n} of {m}",
    play: "Play", pause: "Pause",
    red: "red", blue: "blue", team: "{team} team", over: "over", playing: "playing",
    unknown_game: "There is no such game on this server.", bad_token: "This link holds no seat of the game.",
    reconnecting: "Connection lost: reconnecting…", stopped: "The game stopped: {error}",
    credit: "Picture cards: {credit}.", license: "License",
    phase_clue: "clue", phase_guess: "guessing", phase_sudden_death: "sudden death", phase_won: "won", phase_lost: "lost",
    phase_cover: "cover", phase_finished: "Game over",
    // the server's English words by their kind (kindText: how a game ended, a stopped bot, a listed game's
    // result; frameText: a refused move): an English page shows them as sent
    s_both_held_back: "both held back in sudden death", s_held_back: "held back in sudden death",
    s_abandoned: "abandoned: nobody played it for {n} minutes while the server was full",
    s_bot_failed: "the bot on seat {seat} failed ({error})",
    s_bot_illegal: "the bot on seat {seat} keeps making illegal moves (RULES {rule})",
    s_won: "won, score {score}", s_won_unscored: "won", s_lost: "lost ({reason})", s_team_won: "{team} won ({reason})",
    s_unfinished: "unfinished ({reason})", s_duet_playing: "{status}, {found}/15 agents", s_playing: "playing",
    k_game_over: "the game is over",
    k_stale: "this move was made after move {made} and the game is at move {now}: it is not played (look at the table again)",
    // what the server refused over HTTP (a new game's settings, a replay), by the reply's kind (replyText): an
    // English page shows the server's words
    e_settings_object: "the settings are a JSON object", e_settings_json: "the settings are not JSON",
    e_settings_large: "the settings are at most {most} bytes", e_game: "game: one of duet, codenames, pictures",
    e_lang: "lang: en or ko", e_seed_number: "seed: a whole number", e_seed_range: "seed: 0 .. 2^64-1",
    e_seed_named: "seed: this server deals every game at random", e_tokens: "tokens: 1..11 timer tokens",
    e_mission: "mission: a mission id",
    e_tokens_and_mission: "tokens: a mission sets its own timer tokens; name tokens or a mission, not both",
    e_deal: "no game can be dealt with these settings (an unknown mission?)",
    e_mode: "mode: bot (a person with a bot partner) or people (two people)", e_seat: "seat: A or B",
    e_first: "first: me or partner", e_variant: "variant: two_player or teams",
    e_seats: "seats: an object of seat: person or bot", e_unknown_seat: "seats: unknown seat '{seat}'",
    e_seat_kind: "seats: each seat is person or bot", e_no_person: "seats: at least one seat is a person",
    e_unknown_setting: "unknown setting '{setting}'",
    e_spec: "{role}: '{spec}' is no bot this server plays on this board",
    e_spec_long: "{role}: an agent spec string of at most {most} characters",
    e_spec_operator: "{role}: '{spec}' is not offered by this server: third-party and language-model bots are for the server's operator",
    e_spec_backend: "{role}: unknown embedding backend '{backend}'",
    e_spec_free_text: "{role}: '{key}=' takes free text (a file, a model) on this server's disk: for the server's operator",
    e_server_full: "the server has {n} games in play; try again when some have ended",
    e_unknown_game: "There is no such game on this server.",
    e_still_playing: "the game is still being played: its record (with the key) opens when it ends",
    legend_duet: "Your key side: green stripe = your agent, black = assassin, beige = bystander · ✓ an agent found · A / B: a bystander token from A's / B's guess",
    legend_duet_end: "Corner: the other side of the key card",
    legend_spymaster: "The key (stripe): red and blue agents, beige bystanders, black the assassin",
    legend_replay_duet: "Bottom stripe: side A of the key card · top stripe: side B",
  },
  ko: {
    nav_new: "새 게임", nav_games: "지난 게임", loading: "불러오는 중…",
    new_title: "새 게임", game: "게임", board_lang: "보드 언어", lang_en: "영어", lang_ko: "한국어",
    g_duet: "코드네임 듀엣", g_codenames: "코드네임", g_pictures: "코드네임 픽처스",
    mode: "참가자", mode_bot: "나와 봇 파트너", mode_people: "두 사람 (파트너에게 참가 링크)",
    my_seat: "내 자리", first: "첫 힌트", first_me: "내가 준다", first_partner: "봇이 준다",
    setup: "타이머 토큰 / 미션", base_game: "기본 게임, 토큰 {n}개", mission_label: "미션 {name} ({t}-{m})",
    bot_spymaster: "봇 스파이마스터", bot_guesser: "봇 요원", seed: "딜 시드 (비우면 무작위)",
    variant: "방식", v_two_player: "2인용: 한 팀 대 가상의 상대 (규칙 1.8)", v_teams: "두 팀, 네 자리 (규칙 1)",
    seat_kind: "{seat}", person: "사람", bot: "봇", create: "게임 시작", creating: "카드를 나누는 중…",
    seat_A: "A", seat_B: "B", spymaster: "스파이마스터", guesser: "요원",
    "red-spymaster": "빨강 스파이마스터", "red-guesser": "빨강 요원", "blue-spymaster": "파랑 스파이마스터",
    "blue-guesser": "파랑 요원",
    you_are: "나: {seat}", partner: "파트너", bot_label: "봇 {spec}", person_label: "사람",
    connected: "접속 중", offline: "접속 안 함", thinking: "{who} 생각 중…",
    loading_bot: "{who} 모델을 불러오는 중 (첫 게임은 조금 걸립니다)…",
    join_links: "참가 링크: 다른 참가자에게 보내세요", copy: "복사",
    your_clue: "내 힌트", clue_word: "한 단어", give_clue: "힌트 주기", stop: "추측 그만",
    pass: "파트너에게 맡기기", partner_first: "봇이 첫 힌트를 주게 하기",
    turn_clue_you: "내 차례: 힌트를 주세요 (초록 카드가 파트너가 찾을 요원입니다).",
    turn_clue_first: "첫 힌트를 주거나 봇이 먼저 하게 하세요.",
    turn_clue_team: "내 차례: 우리 팀 요원에게 힌트를 주세요 ({team} 요원).",
    turn_clue_other: "{who}이(가) 힌트를 줍니다.", turn_guess_you: "추측: 카드를 누르세요. 힌트: {clue}",
    turn_guess_other: "{who}이(가) {clue}에 대해 추측 중입니다.",
    turn_sd_you: "서든데스: 카드를 추측하거나 (틀리면 패배) 파트너에게 맡기세요.",
    turn_sd_other: "서든데스: {who}이(가) 추측할 수 있습니다.", turn_cover_you: "{team} 팀 요원 하나를 덮으세요 (누르기).",
    turn_cover_other: "{who}이(가) 카드를 덮습니다.",
    agents_found: "찾은 요원", tokens: "타이머 토큰", mistakes: "실수", of: "{b}개 중 {a}개",
    check_side: "체크 면 {n}개, 행인 면 {m}개", no_limit: "제한 없음",
    agents_left: "남은 요원", guesses_left: "남은 추측: {n}", unlimited: "무제한",
    history: "힌트와 추측", bot_meant: "봇이 뜻한 것",
    meant: "{seat}이(가) {clue}(으)로 뜻한 카드:", found: "찾음", found_later: "나중에 찾음", not_found: "못 찾음",
    no_targets: "(대상 없음)", hidden_targets: "아직 못 찾은 {n}개 (게임이 끝나면 공개)", uncounted_targets: "나머지가 있다면 게임이 끝나면 공개",
    ev_clue: "{seat}: 힌트 {word} {number}", ev_guess: "{seat}이(가) {word}을(를) 짚음: {result}",
    ev_stop: "{seat} 추측 그만", ev_penalty: "{seat}: 힌트 거절 ({result})", ev_cover: "{seat}이(가) {word}을(를) 덮음 ({result})",
    ev_end_turn: "{seat}: 차례 끝",
    r_green: "요원 ✓", r_bystander: "행인", r_assassin: "암살자",
    r_R: "빨강 요원", r_B: "파랑 요원", r_N: "행인", r_X: "암살자",
    refused: "거절", rule: "규칙 {rule}", error: "오류",
    won: "승리! 요원 15명을 모두 찾았습니다.", lost: "패배: {reason}.", unfinished: "게임이 끝나지 않은 채 멈췄습니다: {reason}.",
    score: "점수 {score} (규칙 3.11)", score2: "점수 {score}: {label}",
    loss_assassin: "암살자를 짚었습니다", loss_sudden_death_miss: "서든데스에서 틀렸습니다",
    loss_out_of_tokens: "낼 토큰이 없습니다", loss_opponent_finished: "상대 요원이 모두 덮였습니다",
    team_won: "{team} 팀 승리 ({reason}).",
    keys: "열쇠 카드", key_side: "{seat} 면", key: "열쇠",
    new_game: "새 게임", replay_link: "한 수씩 다시 보기", record_link: "기록 내려받기",
    games_title: "지난 게임", g_id: "게임", g_game: "게임", g_lang: "보드", g_seats: "자리", g_moves: "수",
    g_result: "결과", g_updated: "마지막 수", continue: "이어 하기", replay: "다시 보기", no_games: "아직 게임이 없습니다.",
    replay_title: "다시 보기: {id}", start: "처음", prev: "◀ 이전", next: "다음 ▶", move: "{m}수 중 {n}번째",
    play: "재생", pause: "멈춤",
    red: "빨강", blue: "파랑", team: "{team} 팀", over: "끝", playing: "진행 중",
    unknown_game: "이 서버에 그런 게임이 없습니다.", bad_token: "이 링크로는 게임 자리에 앉을 수 없습니다.",
    reconnecting: "연결이 끊겼습니다: 다시 연결 중…", stopped: "게임이 멈췄습니다: {error}",
    credit: "그림 카드: {credit}.", license: "라이선스",
    phase_clue: "힌트", phase_guess: "추측", phase_sudden_death: "서든데스", phase_won: "승리", phase_lost: "패배",
    phase_cover: "덮기", phase_finished: "게임 끝",
    s_both_held_back: "서든데스에서 둘 다 추측하지 않았습니다", s_held_back: "서든데스에서 추측하지 않았습니다",
    s_abandoned: "버려짐: 서버가 가득 찬 동안 {n}분 넘게 아무도 두지 않았습니다",
    s_bot_failed: "{seat} 자리의 봇이 멈췄습니다 ({error})",
    s_bot_illegal: "{seat} 자리의 봇이 계속 규칙에 어긋난 수를 둡니다 (규칙 {rule})",
    s_won: "승리, 점수 {score}", s_won_unscored: "승리", s_lost: "패배 ({reason})", s_team_won: "{team} 팀 승리 ({reason})",
    s_unfinished: "끝나지 않음 ({reason})", s_duet_playing: "{status}, 요원 {found}/15", s_playing: "진행 중",
    k_game_over: "게임이 끝났습니다",
    k_stale: "{made}번째 수 뒤에 둔 수인데 게임은 {now}번째 수까지 왔습니다: 두지 않았습니다 (테이블을 다시 보세요)",
    e_settings_object: "설정은 이름과 값의 객체로 보내야 합니다", e_settings_json: "설정을 읽을 수 없습니다",
    e_settings_large: "설정은 {most}바이트를 넘을 수 없습니다", e_game: "게임은 코드네임 듀엣, 코드네임, 코드네임 픽처스 중 하나입니다",
    e_lang: "보드 언어는 영어나 한국어입니다", e_seed_number: "딜 시드는 정수입니다", e_seed_range: "딜 시드는 0부터 2^64-1까지입니다",
    e_seed_named: "이 서버는 모든 게임을 무작위로 나눕니다: 딜 시드를 정할 수 없습니다", e_tokens: "타이머 토큰은 1~11개입니다",
    e_mission: "알 수 없는 미션입니다",
    e_tokens_and_mission: "미션은 타이머 토큰 수를 스스로 정합니다: 토큰 수와 미션 중 하나만 고르세요",
    e_deal: "이 설정으로는 카드를 나눌 수 없습니다 (알 수 없는 미션인가요?)",
    e_mode: "참가자는 '나와 봇 파트너' 또는 '두 사람'입니다", e_seat: "내 자리는 A 또는 B입니다",
    e_first: "첫 힌트는 '내가 준다' 또는 '봇이 준다'입니다", e_variant: "방식은 2인용 또는 두 팀입니다",
    e_seats: "자리 설정은 자리마다 사람 또는 봇을 적은 객체입니다", e_unknown_seat: "알 수 없는 자리입니다: '{seat}'",
    e_seat_kind: "자리마다 사람 또는 봇입니다", e_no_person: "적어도 한 자리는 사람이어야 합니다",
    e_unknown_setting: "알 수 없는 설정입니다: '{setting}'",
    e_spec: "{role}: '{spec}'은(는) 이 서버가 이 보드에서 쓸 수 있는 봇이 아닙니다 (봇 이름, 백엔드, 보드 언어를 확인하세요)",
    e_spec_long: "{role}: 봇 설정은 {most}자 이하입니다",
    e_spec_operator: "{role}: '{spec}'은(는) 이 서버에서 쓸 수 없습니다: 외부 봇과 언어 모델 봇은 서버 운영자만 켭니다",
    e_spec_backend: "{role}: 알 수 없는 임베딩 백엔드입니다: '{backend}'",
    e_spec_free_text: "{role}: '{key}='은(는) 서버 디스크의 파일이나 모델을 가리킵니다: 서버 운영자만 씁니다",
    e_server_full: "서버에 진행 중인 게임이 {n}개입니다: 몇 게임이 끝난 뒤 다시 해 보세요",
    e_unknown_game: "이 서버에 그런 게임이 없습니다.",
    e_still_playing: "아직 진행 중인 게임입니다: 기록(열쇠 포함)은 게임이 끝나면 열립니다",
    legend_duet: "내 열쇠 면: 초록 줄 = 내 요원, 검정 = 암살자, 베이지 = 행인 · ✓ 찾은 요원 · A / B: A / B의 추측으로 놓인 행인 토큰",
    legend_duet_end: "모서리: 열쇠 카드의 다른 면",
    legend_spymaster: "열쇠 (줄): 빨강·파랑 요원, 베이지 행인, 검정 암살자",
    legend_replay_duet: "아래 줄: 열쇠 카드 A 면 · 위 줄: B 면",
  },
};

let CONFIG = null;
async function config() {
  if (!CONFIG) CONFIG = await api("/api/config");
  return CONFIG;
}

function mySeats() {
  try { return JSON.parse(localStorage.getItem("cnlab-seats") || "{}"); } catch (e) { return {}; }
}
function rememberSeat(id, seat, token) {
  const all = mySeats();
  all[id] = { seat, token };
  localStorage.setItem("cnlab-seats", JSON.stringify(all));
}

// ----- router ------------------------------------------------------------------------------------
let socket = null;
let replayTimer = null;

function route() {
  if (socket) { socket.onclose = null; socket.close(); socket = null; }
  if (replayTimer) { clearInterval(replayTimer); replayTimer = null; }
  chrome();
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  $("#footer").replaceChildren();
  if (parts[0] === "play" && parts.length >= 3) return playView(parts[1], parts[2]);
  if (parts[0] === "games") return gamesView();
  if (parts[0] === "replay" && parts[1]) return replayView(parts[1]);
  return newGameView();
}
function chrome() {  // the header in the interface language
  document.documentElement.lang = UI;
  for (const n of document.querySelectorAll("[data-t]")) n.textContent = t(n.dataset.t);
  for (const b of document.querySelectorAll("[data-ui]")) b.classList.toggle("on", b.dataset.ui === UI);
}
window.addEventListener("hashchange", route);
for (const b of document.querySelectorAll("[data-ui]")) {
  b.addEventListener("click", () => {
    UI = b.dataset.ui; localStorage.setItem("cnlab-ui", UI); chrome(); rerender();
    if ($("#footer").childElementCount) creditFooter();  // shown already: again, in the new language
  });
}
let rerender = route;

function creditFooter(game) {
  if (!CONFIG || (game && game !== "pictures")) return;
  const c = CONFIG.pictures_credit;
  $("#footer").replaceChildren(el("p", { class: "credit", id: "pictures-credit" },
    t("credit", { credit: c.text }), " ", el("a", { href: c.license_url, target: "_blank", rel: "noopener" }, t("license"))));
}

// ----- a new game --------------------------------------------------------------------------------
function select(id, options, value) {
  return el("select", { id, name: id },
    options.map(([v, label]) => el("option", { value: v, selected: v === value }, label)));
}
function field(label, control) { return el("label", { class: "field" }, el("span", {}, label), control); }

async function newGameView() {
  rerender = newGameView;
  const cfg = await config();
  const form = el("form", { id: "new-game", class: "panel" });
  const state = JSON.parse(sessionStorage.getItem("cnlab-form") || "{}");
  const val = (k, d) => (state[k] !== undefined ? state[k] : d);

  function draw() {
    const game = val("game", "duet"), lang = val("lang", "en");
    const defaults = cfg.defaults[lang][game];
    const rows = [
      el("h1", {}, t("new_title")),
      field(t("game"), select("game", cfg.games.map((g) => [g.id, t("g_" + g.id)]), game)),
      field(t("board_lang"), select("lang", [["en", t("lang_en")], ["ko", t("lang_ko")]], lang)),
    ];
    if (game === "duet") {
      const mode = val("mode", "bot");
      rows.push(field(t("mode"), select("mode", [["bot", t("mode_bot")], ["people", t("mode_people")]], mode)));
      const setups = [9, 10, 11].map((n) => ["tokens:" + n, t("base_game", { n })]).concat(
        cfg.missions.map((m) => ["mission:" + m.id, t("mission_label",
          { name: UI === "ko" ? m.name_ko : m.name, t: m.timer_tokens, m: m.mistakes })]));
      rows.push(field(t("setup"), select("setup", setups, val("setup", "tokens:9"))));
      if (mode === "bot") {
        rows.push(field(t("my_seat"), select("seat", [["A", "A"], ["B", "B"]], val("seat", "A"))));
        rows.push(field(t("first"), select("first", [["me", t("first_me")], ["partner", t("first_partner")]],
          val("first", "me"))));
      }
    } else {
      const variant = val("variant", "two_player");
      rows.push(field(t("variant"), select("variant", [["two_player", t("v_two_player")], ["teams", t("v_teams")]],
        variant)));
      const seats = variant === "two_player" ? [["spymaster", "person"], ["guesser", "bot"]]
        : [["red-spymaster", "person"], ["red-guesser", "bot"], ["blue-spymaster", "bot"], ["blue-guesser", "bot"]];
      const box = el("div", { class: "seat-kinds" });
      for (const [seat, d] of seats) {
        box.append(field(t(seat), select("kind-" + seat, [["person", t("person")], ["bot", t("bot")]],
          val("kind-" + seat, d))));
      }
      rows.push(box);
    }
    const needsBot = !(game === "duet" && val("mode", "bot") === "people");
    if (needsBot) {
      rows.push(field(t("bot_spymaster"), el("input", { id: "spymaster", list: "spymasters", autocomplete: "off",
        value: val("spymaster_" + game + lang, defaults.spymaster) })));
      rows.push(field(t("bot_guesser"), el("input", { id: "guesser", list: "guessers", autocomplete: "off",
        value: val("guesser_" + game + lang, defaults.guesser) })));
      rows.push(el("datalist", { id: "spymasters" }, cfg.bot_examples.spymaster.map((s) => el("option", { value: s }))));
      rows.push(el("datalist", { id: "guessers" }, cfg.bot_examples.guesser.map((s) => el("option", { value: s }))));
    }
    if (CONFIG && CONFIG.client_seeds)   // a named seed deals the keys: research servers only
      rows.push(field(t("seed"), el("input", { id: "seed", inputmode: "numeric", value: val("seed", "") })));
    rows.push(el("p", { id: "setup-error", class: "error", hidden: true }));
    rows.push(el("button", { id: "create", type: "submit", class: "primary" }, t("create")));
    form.replaceChildren(...rows);
  }

  form.addEventListener("change", (ev) => {
    const id = ev.target.id;
    const game = val("game", "duet"), lang = val("lang", "en");
    state[id === "spymaster" || id === "guesser" ? id + "_" + game + lang : id] = ev.target.value;
    sessionStorage.setItem("cnlab-form", JSON.stringify(state));
    if (["game", "lang", "mode", "variant"].includes(id)) draw();
  });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const v = (id) => (form.querySelector("#" + id) || {}).value;
    const game = v("game");
    const body = { game, lang: v("lang"), seed: v("seed") || null };
    if (game === "duet") {
      body.mode = v("mode");
      const [kind, what] = v("setup").split(":");
      if (kind === "tokens") body.tokens = Number(what); else body.mission = what;
      if (body.mode === "bot") { body.seat = v("seat"); body.first = v("first"); }
    } else {
      body.variant = v("variant");
      body.seats = {};
      for (const s of form.querySelectorAll("[id^=kind-]")) body.seats[s.id.slice(5)] = s.value;
    }
    if (form.querySelector("#spymaster")) { body.spymaster = v("spymaster"); body.guesser = v("guesser"); }
    const button = form.querySelector("#create");
    button.disabled = true; button.textContent = t("creating");
    try {
      const made = await api("/api/games", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body) });
      rememberSeat(made.id, made.seat, made.token);
      sessionStorage.setItem("cnlab-links-" + made.id, JSON.stringify(made.links));
      location.hash = "#/play/" + made.id + "/" + made.token;
    } catch (e) {
      const p = form.querySelector("#setup-error");
      p.hidden = false; p.textContent = e.reply ? replyText(e.reply) : serverText(e.message);
      button.disabled = false; button.textContent = t("create");
    }
  });
  draw();
  main().replaceChildren(form);
  creditFooter();
}

// What the server refused over HTTP ({error, kind, fields}: a new game's settings, a replay): worded by its
// kind from the table (e_KIND) in the interface's language; the English page, or a reply of no known kind,
// shows the server's words.
function replyText(reply) {
  const key = "e_" + reply.kind;
  if (UI === "en" || !reply.kind || !(TEXT[UI] && TEXT[UI][key])) return serverText(reply.error);
  const fields = { ...(reply.fields || {}) };
  if (fields.role) fields.role = t("bot_" + fields.role);
  return t(key, fields);
}

// ----- drawing a board ---------------------------------------------------------------------------
function seatName(seat) {
  if (seat === "A" || seat === "B") return seat;
  return t(seat);
}

function cardFace(c, view) {
  if (c.img) {
    return [el("img", { src: c.img, alt: c.label, title: c.label, draggable: "false" }),
      el("span", { class: "label" }, UI === "ko" ? c.label_ko : c.label)];
  }
  return [el("span", { class: "word" }, c.word)];
}

function duetCard(c, view, spectator) {
  const reveal = view.reveal;
  const classes = ["card"];
  if (spectator || (reveal && !view.seat)) {
    classes.push("split", "ka-" + reveal.A[c.i], "kb-" + reveal.B[c.i]);
  } else {
    classes.push("key-" + c.mine);
    if (reveal) classes.push("other-" + reveal[view.seat === "A" ? "B" : "A"][c.i]);
  }
  if (c.agent) classes.push("agent");
  if (view.you && view.you.guess && c.guessable) classes.push("clickable");
  const marks = el("span", { class: "marks" }, (c.marks || []).map((s) => el("span", { class: "mark mark-" + s, title: s }, s)));
  return el("div", { class: classes.join(" "), "data-i": c.i, "data-word": c.word },
    ...cardFace(c, view), marks);
}

function codenamesCard(c, view) {
  const classes = ["card"];
  const key = view.reveal ? view.reveal.key[c.i] : c.key;
  if (key) classes.push("key-" + key);
  if (c.revealed) classes.push("revealed", "revealed-" + c.revealed);
  if (view.you && (view.you.guess || view.you.cover) && !c.revealed) classes.push("clickable");
  if (c.img) classes.push("picture");
  return el("div", { class: classes.join(" "), "data-i": c.i, "data-word": c.word }, ...cardFace(c, view));
}

function board(view, onClick, spectator) {
  const [rows, cols] = view.grid;
  const grid = el("div", { id: "board", class: "board " + view.game, style: `grid-template-columns: repeat(${cols}, 1fr)` });
  for (const c of view.cards) {
    const card = view.game === "duet" ? duetCard(c, view, spectator) : codenamesCard(c, view);
    if (onClick) card.addEventListener("click", () => onClick(c));
    grid.append(card);
  }
  return grid;
}

function keyGrid(letters, title, cols, prefix) {
  return el("div", { class: "keygrid-box" }, el("div", { class: "dim" }, title),
    el("div", { class: "keygrid", style: `grid-template-columns: repeat(${cols}, 1fr)`, "data-key": letters },
      [...letters].map((l) => el("span", { class: prefix + l }))));
}

function eventLine(e, view) {
  const seat = seatName(e.seat);
  const word = view.game === "pictures" && e.word ? pictureName(view, e.word) : e.word;
  const result = e.result ? (t("r_" + e.result) === "r_" + e.result ? e.result : t("r_" + e.result)) : "";
  const number = e.number === "unlimited" ? "∞" : e.number;
  return el("li", { class: "ev ev-" + e.kind + (e.result ? " res-" + e.result : "") },
    t("ev_" + e.kind, { seat, word: e.kind === "clue" ? String(e.word).toUpperCase() : word, number, result }));
}

function pictureName(view, id) {
  const c = view.cards.find((x) => x.word === id);
  if (!c) return id;
  return UI === "ko" ? c.label_ko : c.label;
}

function intentsList(view) {
  if (!view.intents || !view.intents.length) return null;
  return el("div", { id: "intents", class: "panel" }, el("h3", {}, t("bot_meant")),
    el("ul", {}, view.intents.map((it) => el("li", { class: "intent", "data-action": it.action },
      el("b", {}, t("meant", { seat: seatName(it.seat), clue: String(it.clue).toUpperCase() + " " + it.number })), " ",
      it.targets.length ? it.targets.map((tg, n) => el("span", { class: "target " + (tg.found ? "found" : tg.later ? "later" : "missed") },
        (n ? ", " : "") + (tg.label || tg.word) + " (" + (tg.found ? t("found") : tg.later ? t("found_later") : t("not_found")) + ")"))
        : (it.hidden || it.uncounted ? "" : t("no_targets")),
      it.hidden ? el("span", { class: "hidden-targets" }, (it.targets.length ? ", " : "") + t("hidden_targets", { n: it.hidden }))
        : it.uncounted ? el("span", { class: "hidden-targets" }, (it.targets.length ? ", " : "") + t("uncounted_targets")) : null))));
}

function clueText(view) {
  const c = view.current_clue;
  if (!c) return "";
  return String(c.word).toUpperCase() + " " + (c.number === "unlimited" ? "∞" : c.number);
}

function whoName(view, seat) {
  if (seat === view.seat) return t("you_are", { seat: seatName(seat) });
  const info = view.seats[seat];
  if (info && info.kind === "bot") return seatName(seat) + " (" + t("bot") + ")";
  return seatName(seat);
}

// ----- playing -----------------------------------------------------------------------------------
let lastView = null;
let notice = null;   // {kind: "error", rule, message}

function playView(id, token) {
  rerender = () => { drawPlay(lastView); };
  lastView = null; notice = null; window.cnlabLastView = null; window.cnlabNotice = null;
  main().replaceChildren(el("p", { class: "dim", id: "connecting" }, t("loading")));
  config();
  let closedByServer = false;

  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`);
    socket = ws;
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") {
        if (lastView && msg.view.moves !== lastView.moves) notice = null;
        if (!lastView) config().then(() => { creditFooter(msg.view.game); drawPlay(lastView); });   // names (missions)
        lastView = msg.view; window.cnlabLastView = lastView; drawPlay(lastView);
      } else if (msg.type === "error") {
        if (msg.code === "unknown_game" || msg.code === "bad_token") {
          closedByServer = true;
          main().replaceChildren(el("div", { class: "panel error", id: "fatal" }, t(msg.code),   // the server's English
            UI === "en" ? [" ", el("span", { class: "dim" }, msg.message)] : null));              // words: English page only
          return;
        }
        if (seatIsFull(msg, !!lastView, el("div", { class: "panel error", id: "fatal" }))) {
          closedByServer = true;
          return;
        }
        notice = msg; window.cnlabNotice = msg; drawPlay(lastView);
      }
    };
    ws.onclose = () => {
      if (closedByServer || socket !== ws) return;
      const n = $("#conn"); if (n) n.textContent = t("reconnecting");
      setTimeout(() => { if (socket === ws) connect(); }, 1000);
    };
  }
  window.cnlabSend = (msg) => { if (socket && socket.readyState === 1) socket.send(JSON.stringify(msg)); };
  connect();
  rememberSeatIfNew(id, token);
}

function rememberSeatIfNew(id, token) {
  const all = mySeats();
  if (!all[id]) rememberSeat(id, null, token);
}

// every move names the view it was made on (its moves): one sent twice (a double click, a page that
// re-sends after a reconnect) or arriving after the game moved on is refused, not played on a later turn
function send(msg) {
  notice = null; window.cnlabNotice = null;
  window.cnlabSend(lastView ? { ...msg, moves: lastView.moves } : msg);
}

function drawPlay(view) {
  if (!view) return;
  const rememberedWord = ($("#clue-word") || {}).value || "";
  const focused = document.activeElement && document.activeElement.id === "clue-word";
  const you = view.you || {};
  const onCard = (c) => {
    if (you.cover) send({ type: "cover", card: c.i });
    else send({ type: "guess", card: c.i });
  };
  const left = el("div", { class: "left" },
    status(view),
    noticeBox(),
    board(view, onCard, false),
    legend(view),
    controls(view),
    endPanel(view));
  const right = el("div", { class: "right" }, seatsPanel(view), joinLinks(view), intentsList(view), historyPanel(view));
  main().replaceChildren(el("div", { id: "game", class: "game " + view.game, "data-phase": view.phase,
    "data-seat": view.seat, "data-over": view.outcome.over ? "1" : "0" }, left, right));
  const input = $("#clue-word");
  if (input) { input.value = rememberedWord; if (focused || rememberedWord === "") input.focus(); }
}

function legend(view) {
  let text = null;
  if (view.game === "duet") text = t("legend_duet") + (view.reveal ? " · " + t("legend_duet_end") : "");
  else if (view.role === "spymaster" || view.reveal) text = t("legend_spymaster");
  return text ? el("p", { class: "legend dim" }, text) : null;
}

function noticeBox() {
  if (!notice) return el("div", { id: "notice", hidden: true });
  return el("div", { id: "notice", class: "error", role: "alert" },
    el("b", {}, notice.rule ? t("refused") + " (" + t("rule", { rule: notice.rule }) + "): " : t("error") + ": "),
    el("span", { class: "message" }, frameText(notice)));
}

function status(view) {
  const parts = [el("h2", {}, t("g_" + view.game) + (view.mission ? " · " + missionName(view.mission) : ""),
    el("span", { class: "dim" }, " · " + t("you_are", { seat: seatName(view.seat) }) + " · " + view.id))];
  const line = el("p", { id: "turn", class: "turn" }, turnText(view));
  parts.push(line);
  if (view.thinking) parts.push(el("p", { id: "thinking", class: "thinking" },
    t(view.loading ? "loading_bot" : "thinking", { who: whoName(view, view.thinking) })));
  if (view.error) parts.push(el("p", { class: "error", id: "stopped" }, t("stopped", { error: kindText(view.error_kind, view.error) })));
  parts.push(el("p", { id: "conn", class: "dim" }));
  if (view.game === "duet") {
    const tk = view.tokens;
    const tokens = el("span", { id: "tokens", class: "tokens", "data-left": tk.left },
      [...Array(tk.left)].map(() => el("span", { class: "token" })));
    const side = tk.mistakes_allowed === null ? "" : " (" + t("check_side", { n: tk.check, m: tk.bystander }) + ")";
    parts.push(el("div", { class: "stats" },
      el("span", {}, t("agents_found") + ": ", el("b", { id: "greens" }, view.greens_found + " / " + view.greens_total)),
      el("span", {}, t("tokens") + ": ", tokens, " ", el("b", {}, String(tk.left)), side),
      el("span", {}, t("mistakes") + ": ", el("b", { id: "mistakes" },
        tk.mistakes + " / " + (tk.mistakes_allowed === null ? t("no_limit") : tk.mistakes_allowed)))));
  } else {
    const al = view.agents_left;
    parts.push(el("div", { class: "stats" },
      el("span", { class: "team-red" }, t("agents_left") + " " + t("red") + ": ", el("b", { id: "left-red" }, String(al.red))),
      el("span", { class: "team-blue" }, t("blue") + ": ", el("b", { id: "left-blue" }, String(al.blue))),
      view.current_clue ? el("span", {}, t("guesses_left", { n: view.guesses_left === null ? t("unlimited") : view.guesses_left })) : null));
  }
  return el("div", { class: "status" }, parts);
}

// A Duet mission as the view names it (its id, "cairo"): on a Korean page its Korean name (카이로) once
// the page's config is loaded; the English page shows the id, as before.
function missionName(id) {
  const m = UI === "en" || !CONFIG ? null : CONFIG.missions.find((x) => x.id === id);
  return m ? m.name_ko : id;
}

function turnText(view) {
  const you = view.you || {};
  if (view.outcome.over) return t("phase_" + (view.outcome.status === "unfinished" ? "finished" : view.phase));
  const other = (view.to_act || []).filter((s) => s !== view.seat);
  const who = other.length ? other.map((s) => whoName(view, s)).join(", ") : "";
  if (view.phase === "clue") {
    if (you.clue && you.partner_first) return t("turn_clue_first");
    if (you.clue) return view.game === "duet" ? t("turn_clue_you") : t("turn_clue_team", { team: t(view.team) });
    return t("turn_clue_other", { who: who || whoName(view, (view.to_act || [])[0]) });
  }
  if (view.phase === "guess") return you.guess ? t("turn_guess_you", { clue: clueText(view) }) : t("turn_guess_other", { who, clue: clueText(view) });
  if (view.phase === "sudden_death") return you.guess ? t("turn_sd_you") : t("turn_sd_other", { who });
  if (view.phase === "cover") {
    return you.cover ? t("turn_cover_you", { team: t(view.pending.team) }) : t("turn_cover_other", { who });
  }
  return view.phase;
}

function controls(view) {
  const you = view.you || {};
  const box = el("div", { id: "controls", class: "controls" });
  if (you.clue) {
    const numbers = [...Array(10).keys()].map((n) => [String(n), String(n)]);
    if (view.game !== "duet") numbers.push(["unlimited", "∞"]);
    const form = el("form", { id: "clue-form", class: "clue-form" },
      el("label", { for: "clue-word" }, t("your_clue")),
      el("input", { id: "clue-word", autocomplete: "off", placeholder: t("clue_word"), maxlength: 40 }),
      select("clue-number", numbers, "1"),
      el("button", { id: "clue-send", type: "submit", class: "primary" }, t("give_clue")));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const word = $("#clue-word").value.trim();
      const raw = $("#clue-number").value;
      if (!word) return;
      send({ type: "clue", word, number: raw === "unlimited" ? raw : Number(raw) });
    });
    box.append(form);
  }
  if (you.partner_first) box.append(el("button", { id: "partner-first", type: "button", onclick: () => send({ type: "first" }) }, t("partner_first")));
  if (you.stop) box.append(el("button", { id: "stop", type: "button", onclick: () => send({ type: "stop" }) }, t("stop")));
  if (you.pass) box.append(el("button", { id: "pass", type: "button", onclick: () => send({ type: "pass" }) }, t("pass")));
  return box;
}

function seatsPanel(view) {
  return el("div", { id: "seats", class: "panel" }, Object.entries(view.seats).map(([seat, info]) =>
    el("div", { class: "seat" + (seat === view.seat ? " me" : "") + ((view.to_act || []).includes(seat) ? " to-act" : ""), "data-seat": seat },
      el("b", {}, seatName(seat)), " ",
      seat === view.seat ? t("you_are", { seat: "" }).replace(/[:\s]+$/, "") :
        info.kind === "bot" ? t("bot_label", { spec: info.spymaster === info.guesser ? info.spymaster : info.spymaster + " + " + info.guesser })
          : t("person_label"),
      info.kind === "person" && seat !== view.seat ? el("span", { class: "dim" }, " · " + (info.connected ? t("connected") : t("offline"))) : null,
      info.thinking ? el("span", { class: "thinking" }, " …") : null)));
}

function joinLinks(view) {
  let links = null;
  try { links = JSON.parse(sessionStorage.getItem("cnlab-links-" + view.id) || "null"); } catch (e) { links = null; }
  if (!links || view.outcome.over) return null;
  const others = Object.entries(links).filter(([seat]) => seat !== view.seat);
  if (!others.length) return null;
  return el("div", { id: "join", class: "panel" }, el("h3", {}, t("join_links")),
    others.map(([seat, path]) => {
      const url = location.origin + "/" + path.replace(/^\//, "");
      const input = el("input", { class: "join-link", readonly: true, value: url, "data-seat": seat });
      return el("div", { class: "join-row" }, el("b", {}, seatName(seat) + " "), input,
        el("button", { type: "button", onclick: () => { input.select(); navigator.clipboard && navigator.clipboard.writeText(url); } }, t("copy")));
    }));
}

function historyPanel(view) {
  const items = (view.history || []).map((e) => eventLine(e, view)).reverse();
  return el("div", { id: "history", class: "panel" }, el("h3", {}, t("history")), el("ol", { reversed: true }, items));
}

function lossText(reason) { return reason ? t("loss_" + reason) : ""; }

// What the server words in English (how a game ended, a stopped bot, a listed game's result: the record
// keeps those words) comes with its kind ({kind, fields}): worded from the table (s_KIND) in the interface's
// language; the English page, or a text of no known kind, shows the server's words. A board's refusals come
// in its language from the server (frameText words the few any board can meet).
const SERVER_TEXTS = [];
function kindText(k, english) {
  if (UI === "en" || !k || !(TEXT[UI] && TEXT[UI]["s_" + k.kind])) return english || "";
  const f = { ...(k.fields || {}) };
  if (f.seat) f.seat = seatName(f.seat);
  if (f.team) f.team = t(f.team);
  if (k.kind === "unfinished") f.reason = kindText(f.ended_kind, f.ended);
  else if (f.reason) f.reason = lossText(f.reason);
  if (f.status) f.status = f.status === "sudden_death" ? t("phase_sudden_death") : t("playing");
  return t("s_" + k.kind, f);
}

function endPanel(view) {
  const o = view.outcome;
  if (!o.over) return null;
  const box = el("div", { id: "end", class: "panel end", "data-status": o.status });
  if (view.game === "duet") {
    if (o.status === "won") {   // RULES 3.11 scores the 9-token game only
      box.append(el("h2", { class: "won" }, t("won")));
      if (o.score !== null && o.score !== undefined) box.append(el("p", { id: "score" }, t("score", { score: o.score })));
    }
    else if (o.status === "lost") box.append(el("h2", { class: "lost" }, t("lost", { reason: lossText(o.loss_reason) })));
    else box.append(el("h2", {}, t("unfinished", { reason: kindText(o.ended_kind || view.error_kind, o.ended || view.error) })));
    if (view.reveal) {
      box.append(el("h3", {}, t("keys")), el("div", { class: "keys", id: "keys" },
        keyGrid(view.reveal.A, t("key_side", { seat: "A" }), 5, "k k-"), keyGrid(view.reveal.B, t("key_side", { seat: "B" }), 5, "k k-")));
    }
  } else {
    if (o.status === "finished") {
      if (o.ours) {
        if (o.winner === o.ours) {
          const label = o.score_label ? (o.score_label[UI] || o.score_label.en) : "";
          box.append(el("h2", { class: "won" }, t("won").split("!")[0] + "!"), el("p", { id: "score" }, t("score2", { score: o.score, label })));
        } else box.append(el("h2", { class: "lost" }, t("lost", { reason: lossText(o.loss_reason) })));
      } else box.append(el("h2", {}, t("team_won", { team: t(o.winner), reason: lossText(o.loss_reason) })));
    } else box.append(el("h2", {}, t("unfinished", { reason: kindText(o.ended_kind || view.error_kind, o.ended || view.error) })));
    if (view.reveal) box.append(el("h3", {}, t("keys")), el("div", { class: "keys", id: "keys" },
      keyGrid(view.reveal.key, t("key"), view.grid[1], "k k-")));
  }
  box.append(el("p", {}, el("a", { href: "#/replay/" + view.id, id: "replay-link" }, t("replay_link")), " · ",
    el("a", { href: "/api/games/" + view.id + "/record", download: view.id + ".json" }, t("record_link")), " · ",
    el("a", { href: "#/" }, t("new_game"))));
  return box;
}

// ----- the games played --------------------------------------------------------------------------
async function gamesView() {
  rerender = gamesView;
  const { games } = await api("/api/games");
  const mine = mySeats();
  const rows = games.map((g) => el("tr", { "data-id": g.id, class: g.over ? "over" : "playing" },
    el("td", {}, g.id), el("td", {}, t("g_" + g.game) + (g.variant ? " · " + g.variant : "")), el("td", {}, g.lang),
    el("td", {}, Object.entries(g.seats).map(([s, k]) => seatName(s) + ": " + t(k)).join(", ")),
    el("td", {}, String(g.moves)), el("td", { class: "result" }, kindText(g.result_kind, g.result)),
    el("td", {}, new Date(g.updated * 1000).toLocaleString(UI)),
    el("td", {}, g.over ? el("a", { href: "#/replay/" + g.id, class: "replay" }, t("replay"))
      : mine[g.id] ? el("a", { href: "#/play/" + g.id + "/" + mine[g.id].token, class: "continue" }, t("continue")) : "")));
  main().replaceChildren(el("div", { class: "panel", id: "games" }, el("h1", {}, t("games_title")),
    games.length ? el("table", { class: "games" },
      el("thead", {}, el("tr", {}, ["g_id", "g_game", "g_lang", "g_seats", "g_moves", "g_result", "g_updated", ""].map((k) => el("th", {}, k ? t(k) : "")))),
      el("tbody", {}, rows)) : el("p", {}, t("no_games"))));
}

// ----- a replay ----------------------------------------------------------------------------------
async function replayView(id) {
  let data;
  try { data = await api("/api/games/" + encodeURIComponent(id) + "/replay"); } catch (e) {
    main().replaceChildren(el("div", { class: "panel error", id: "fatal" }, e.reply ? replyText(e.reply) : e.message));
    return;
  }
  await config(); creditFooter(data.summary.game);
  let n = Number(sessionStorage.getItem("cnlab-replay-" + id) || 0);
  const frames = data.frames;
  function draw() {
    n = Math.max(0, Math.min(frames.length - 1, n));
    sessionStorage.setItem("cnlab-replay-" + id, n);
    const f = frames[n];
    const view = Object.assign({ you: {}, seats: {}, outcome: { over: false } }, f);
    const slider = el("input", { id: "replay-slider", type: "range", min: 0, max: frames.length - 1, value: n,
      oninput: (ev) => { n = Number(ev.target.value); draw(); } });
    const act = f.action;
    const actText = act ? (act.kind === "clue" ? t("ev_clue", { seat: seatName(act.seat), word: String(act.clue).toUpperCase(), number: act.number })
      : act.kind === "guess" ? seatName(act.seat) + ": " + (view.game === "pictures" ? pictureName(view, act.guess) : act.guess)
        : act.kind === "cover" ? seatName(act.seat) + ": " + act.cover : t("ev_stop", { seat: seatName(act.seat) })) : t("start");
    main().replaceChildren(el("div", { id: "replay", class: "game " + f.game },
      el("div", { class: "left" },
        el("h2", {}, t("replay_title", { id }), el("span", { class: "dim" }, " · " + kindText(data.summary.result_kind, data.summary.result))),
        el("div", { class: "replay-bar" },
          el("button", { id: "replay-start", type: "button", onclick: () => { n = 0; draw(); } }, t("start")),
          el("button", { id: "replay-prev", type: "button", onclick: () => { n -= 1; draw(); } }, t("prev")),
          el("button", { id: "replay-next", type: "button", onclick: () => { n += 1; draw(); } }, t("next")),
          el("button", { id: "replay-play", type: "button", onclick: () => {
            if (replayTimer) { clearInterval(replayTimer); replayTimer = null; draw(); return; }
            replayTimer = setInterval(() => { if (n >= frames.length - 1) { clearInterval(replayTimer); replayTimer = null; } n += 1; draw(); }, 700);
          } }, replayTimer ? t("pause") : t("play")),
          slider, el("span", { id: "replay-pos" }, t("move", { n, m: frames.length - 1 }))),
        el("p", { id: "replay-action", class: "turn" }, actText,
          act && act.intent ? el("span", { class: "dim" }, " → " + act.intent.map((w) => view.game === "pictures" ? pictureName(view, w) : w).join(", ")) : null),
        board(view, null, true),
        el("p", { class: "legend dim" }, view.game === "duet" ? t("legend_replay_duet") : t("legend_spymaster")),
        view.game === "duet" ? el("p", { class: "dim" }, t("agents_found") + ": " + view.greens_found + " / 15 · " + t("tokens") + ": " + view.tokens.left)
          : el("p", { class: "dim" }, t("agents_left") + ": " + t("red") + " " + view.agents_left.red + " · " + t("blue") + " " + view.agents_left.blue)),
      el("div", { class: "right" }, intentsList(view), historyPanel(view))));
  }
  rerender = draw;
  draw();
}

route();
