/* Spy's Word rooms in the browser (docs/spyword_web.md): plain JavaScript, no build step.
 *
 * Routes (in the address's #): #/ create or join a room, #/room/CODE a room (the seat's token is
 * kept in this browser's localStorage), #/profile/ID a profile, #/me this browser's profile.
 * The server holds the game; this page draws the room frame it receives (only its own seat's
 * observation; on a single device only the card of the player who took the phone) and sends moves.
 */
"use strict";

const TEXT = {
  en: {
    brand: "Spy's Word", nav_home: "Rooms", nav_profile: "My profile", nav_codenames: "Codenames games",
    home_title: "Spy's Word", profile_title: "Your profile", your_name: "Your name", save: "Save",
    create_title: "Create a room", device: "Devices", d_multi: "Each player on their own device",
    d_single: "One phone passed around", words_lang: "Word packs", lang_en: "English", lang_ko: "Korean",
    create: "Create the room", join_title: "Join a room", room_code: "Room code", join: "Join",
    need_name: "Enter your name first.",
    room: "Room {code}", join_link: "Join link", copy: "Copy", players_in: "Players",
    lobby_wait: "Waiting for the host to start…", host: "host", bot_name: "Bot {n}", you: "you",
    offline: "offline", left: "left",
    players: "Seats (bots fill the empty ones)", bot: "Bots", b_standard: "Standard (embedding bot)",
    b_easy: "Easy (random clues and votes)", settings: "Host settings (RULES 5.14)",
    s_minority: "Spies", s_ghost: "Ghost", auto: "Recommended", yes: "yes", no: "no",
    s_tell_minority: "Tell a spy it is the spy", s_reveal_eliminated_role: "Reveal an eliminated player's role",
    s_vote_display: "Vote display", v_public: "Public (who voted for whom)", v_counts: "Counts only",
    s_allow_pass: "Allow PASS", s_clue_mode: "Clue", c_word: "One word", c_sentence: "One sentence",
    s_discussion_seconds: "Discussion", unlimited: "No limit", secs: "{n} s", s_tie_break: "Tie-break",
    t_duel: "Duel", t_lottery: "Lots", start: "Start the game", add_player: "Add a player at this device",
    add: "Add", remove: "Remove", kick: "Kick", leave: "Leave the room", again: "Another game",
    your_word: "Your word", no_word: "You are the ghost: you have no word.", you_are_spy: "You are the spy.",
    role_is: "Your role: {role}", hide_word: "Hide", show_word: "Show my word", got_it: "Got it",
    ready_wait: "Look at your card, then press Got it. Waiting for: {who}",
    round: "Round {n}", phase_ready: "Cards", phase_clues: "Clues", phase_duel_clues: "Duel clues",
    phase_discussion: "Discussion", phase_vote: "Vote", phase_duel_vote: "Duel vote",
    phase_ghost_guess: "The ghost guesses", phase_private_screen: "An eliminated player's screen",
    phase_finished: "Game over", phase_aborted: "Game over",
    your_clue: "Your clue", clue_word_ph: "one word", clue_sentence_ph: "one sentence", give: "Give the clue",
    speaking: "{who} gives a clue…", your_turn: "Your turn: give your clue.", discussion: "Discuss! Then the host starts the vote.",
    discussion_single: "Discuss! Anyone may start the vote.",
    start_vote: "Start the vote", vote_for: "Vote: who has the other word?", pass: "PASS", voted: "Voted: {who}",
    your_vote: "Your vote: {who}", vote_wait: "Votes cast: {n} of {m}",
    duel: "Tie between {who}: they give one more clue, then the others choose.",
    guess_title: "You are the ghost and you were eliminated: guess the citizens' word (once).",
    guess: "Guess", dismiss: "Close", screen_role: "You were eliminated. Your role: {role}",
    waiting_screen: "{who} is looking at their screen…",
    clues_title: "Clues", votes_title: "Votes", no_clue: "(no clue in time)", timed_out: "time ran out",
    out: "Eliminated: {who}{role}", out_by_vote: "by the vote", out_by_lots: "by lots", out_by_leave: "left",
    out_by_kick: "kicked", o_eliminated: "{who} eliminated", o_pass: "PASS: nobody eliminated",
    o_duel: "tie: duel", o_lots: "lots: {who}", o_departed: "the duel ended: a player left",
    counts: "counts", ghost_guessed: "The ghost guessed {word}: {result}", right: "right", wrong: "wrong",
    no_guess: "no guess",
    host_offline: "The host's connection dropped. A new host in {n} s.",
    thinking: "{who} is thinking…",
    end_title: "Game over", w_citizens: "The citizens win!", w_spies: "The spies and the ghost win!",
    w_ghost: "The ghost guessed the word and wins alone!", w_none: "The game ended without a winner (too few players).",
    citizen_word: "Citizens' word", spy_word: "Spies' word", category: "Kind", roles_title: "Roles",
    xp_gained: "+{xp} XP (level {level})", new_title: "New title: {title}", level_up: "Level up!",
    record_link: "Download the record", role_citizen: "citizen", role_spy: "spy", role_ghost: "ghost",
    pass_to: "Pass the phone to {who}.", im: "I am {who}: show my card", hide: "Hide and pass the phone",
    peek: "Look at my word:", card_of: "{who}'s card", single_wait: "Bots are playing…",
    profile: "Profile", level: "Level {n}", xp: "{xp} XP", next_level: "{n} XP to level {l}",
    titles: "Titles", stats: "Statistics", games: "Games", wins: "Wins", losses: "Losses", left_games: "Left",
    eliminated: "Eliminated", survived: "Survived", votes: "Votes", votes_right: "Votes for a spy/ghost",
    ghost_guesses: "Ghost guesses", ghost_right: "Right", win_rate: "Win rate", streak: "Streak {n} (best {b})",
    total: "All", no_profile: "No profile yet: enter your name on the Rooms page.",
    gone_left: "You left the room.", gone_kicked: "The host removed you from the room.",
    refused: "Refused", rule: "RULES {rule}", error: "Error", unknown_room: "There is no such room on this server.",
    bad_token: "This browser holds no seat of that room.", reconnecting: "Connection lost: reconnecting…",
    stopped: "The game stopped: {error}",
    // what the server refused over HTTP (joining or creating a room, a profile), by the reply's kind
    // (replyText): an English page shows the server's own words, these are the table's
    e_room_too_large: "a request is at most {most} bytes", e_room_not_json: "the request is not JSON",
    e_room_request_field: "unknown field {field} of the request", e_room_new_object: "a new room's settings are a JSON object",
    e_room_join_object: "a join request is a JSON object with a name",
    e_room_profile_object: "a new profile is a JSON object with a name",
    e_room_device: "devices: each player on their own device, or one phone passed around",
    e_room_lang: "the word packs are English or Korean",
    e_room_seed_named: "this server deals every room at random: a room cannot name its seed",
    e_room_seed: "the seed is a whole number 0..2^64-1", e_room_rooms_full: "the server has too many rooms open",
    e_room_bad_profile: "unknown profile or wrong key (create a profile on this server first)",
    e_room_profiles_full: "this server holds {most} profiles already; play without one",
    e_room_unknown: "There is no such room on this server.", e_room_unknown_profile: "There is no such profile on this server.",
    e_room_started: "the game has started: a new player can join the next game in this room",
    e_room_full: "the room is full ({n} players)", e_room_name_taken: "{name} is taken in this room: choose another name",
    e_room_profile_taken: "this profile is already in the room",
    e_room_single_device: "this room plays on one device: the host adds the players there",
    e_name_length: "a name is 1 to {most} characters", e_name_text: "a name is a text of 1 to 24 characters",
    e_name_invisible: "a name may not hold control or invisible characters",
    e_name_blank: "a name needs at least one visible character (not only blank ones)",
  },
  ko: {
    brand: "스파이의 단어", nav_home: "방", nav_profile: "내 프로필", nav_codenames: "코드네임 게임",
    home_title: "스파이의 단어", profile_title: "내 프로필", your_name: "이름", save: "저장",
    create_title: "방 만들기", device: "기기", d_multi: "각자 자기 기기로", d_single: "휴대폰 하나를 돌려 가며",
    words_lang: "단어 묶음", lang_en: "영어", lang_ko: "한국어",
    create: "방 만들기", join_title: "방에 들어가기", room_code: "방 코드", join: "들어가기",
    need_name: "먼저 이름을 입력하세요.",
    room: "방 {code}", join_link: "참가 링크", copy: "복사", players_in: "참가자",
    lobby_wait: "방장이 게임을 시작하기를 기다리는 중…", host: "방장", bot_name: "봇 {n}", you: "나",
    offline: "접속 끊김", left: "나감",
    players: "자리 수 (빈 자리는 봇)", bot: "봇", b_standard: "보통 (임베딩 봇)", b_easy: "쉬움 (무작위)",
    settings: "방장 설정 (규칙 5.14)", s_minority: "스파이", s_ghost: "유령", auto: "추천", yes: "예", no: "아니요",
    s_tell_minority: "스파이에게 스파이임을 알려 주기", s_reveal_eliminated_role: "탈락자의 역할 공개",
    s_vote_display: "투표 표시", v_public: "공개 (누가 누구에게)", v_counts: "표 수만",
    s_allow_pass: "PASS 허용", s_clue_mode: "힌트", c_word: "한 단어", c_sentence: "한 문장",
    s_discussion_seconds: "토론 시간", unlimited: "제한 없음", secs: "{n}초", s_tie_break: "동점 처리",
    t_duel: "결투", t_lottery: "추첨", start: "게임 시작", add_player: "이 기기에서 할 참가자 추가",
    add: "추가", remove: "빼기", kick: "내보내기", leave: "방 나가기", again: "한 판 더",
    your_word: "내 단어", no_word: "당신은 유령입니다: 단어가 없습니다.", you_are_spy: "당신은 스파이입니다.",
    role_is: "내 역할: {role}", hide_word: "가리기", show_word: "내 단어 보기", got_it: "확인",
    ready_wait: "카드를 보고 확인을 누르세요. 기다리는 사람: {who}",
    round: "{n}라운드", phase_ready: "카드 확인", phase_clues: "힌트", phase_duel_clues: "결투 힌트",
    phase_discussion: "토론", phase_vote: "투표", phase_duel_vote: "결투 투표", phase_ghost_guess: "유령의 추측",
    phase_private_screen: "탈락자의 화면", phase_finished: "게임 끝", phase_aborted: "게임 끝",
    your_clue: "내 힌트", clue_word_ph: "한 단어", clue_sentence_ph: "한 문장", give: "힌트 말하기",
    speaking: "{who}이(가) 힌트를 말합니다…", your_turn: "내 차례: 힌트를 말하세요.", discussion: "토론하세요! 방장이 투표를 시작합니다.",
    discussion_single: "토론하세요! 누구나 투표를 시작할 수 있습니다.",
    start_vote: "투표 시작", vote_for: "투표: 다른 단어를 가진 사람은?", pass: "PASS", voted: "투표함: {who}",
    your_vote: "내 투표: {who}", vote_wait: "투표: {m}명 중 {n}명",
    duel: "{who} 동점: 한 번 더 힌트를 말하고 나머지가 고릅니다.",
    guess_title: "당신은 유령이고 탈락했습니다: 시민의 단어를 한 번 맞혀 보세요.",
    guess: "맞히기", dismiss: "닫기", screen_role: "탈락했습니다. 내 역할: {role}",
    waiting_screen: "{who}이(가) 자기 화면을 보는 중…",
    clues_title: "힌트", votes_title: "투표", no_clue: "(시간 안에 힌트 없음)", timed_out: "시간 초과",
    out: "탈락: {who}{role}", out_by_vote: "투표로", out_by_lots: "추첨으로", out_by_leave: "나감",
    out_by_kick: "내보내짐", o_eliminated: "{who} 탈락", o_pass: "PASS: 아무도 탈락하지 않음",
    o_duel: "동점: 결투", o_lots: "추첨: {who}", o_departed: "결투 종료: 한 명이 나감",
    counts: "표 수", ghost_guessed: "유령의 추측 {word}: {result}", right: "정답", wrong: "오답", no_guess: "추측 없음",
    host_offline: "방장의 연결이 끊겼습니다. {n}초 뒤에 새 방장이 정해집니다.",
    thinking: "{who} 생각 중…",
    end_title: "게임 끝", w_citizens: "시민 승리!", w_spies: "스파이와 유령 승리!",
    w_ghost: "유령이 단어를 맞혀 혼자 이겼습니다!", w_none: "승자 없이 끝났습니다 (인원 부족).",
    citizen_word: "시민의 단어", spy_word: "스파이의 단어", category: "종류", roles_title: "역할",
    xp_gained: "+{xp} XP (레벨 {level})", new_title: "새 칭호: {title}", level_up: "레벨 업!",
    record_link: "기록 내려받기", role_citizen: "시민", role_spy: "스파이", role_ghost: "유령",
    pass_to: "{who}에게 휴대폰을 넘기세요.", im: "내가 {who}: 내 카드 보기", hide: "가리고 넘기기",
    peek: "내 단어 다시 보기:", card_of: "{who}의 카드", single_wait: "봇이 두는 중…",
    profile: "프로필", level: "레벨 {n}", xp: "{xp} XP", next_level: "레벨 {l}까지 {n} XP",
    titles: "칭호", stats: "통계", games: "판", wins: "승", losses: "패", left_games: "나감",
    eliminated: "탈락", survived: "생존", votes: "투표", votes_right: "스파이/유령에게 한 표",
    ghost_guesses: "유령 추측", ghost_right: "정답", win_rate: "승률", streak: "연승 {n} (최고 {b})",
    total: "전체", no_profile: "아직 프로필이 없습니다: 방 페이지에서 이름을 입력하세요.",
    gone_left: "방에서 나왔습니다.", gone_kicked: "방장이 당신을 내보냈습니다.",
    refused: "거절", rule: "규칙 {rule}", error: "오류", unknown_room: "이 서버에 그런 방이 없습니다.",
    bad_token: "이 브라우저는 그 방의 자리가 없습니다.", reconnecting: "연결이 끊겼습니다: 다시 연결 중…",
    stopped: "게임이 멈췄습니다: {error}",
    e_room_too_large: "요청은 {most}바이트를 넘을 수 없습니다", e_room_not_json: "요청을 읽을 수 없습니다",
    e_room_request_field: "{field}은(는) 이 요청에 없는 칸입니다", e_room_new_object: "새 방의 설정은 이름과 값의 객체입니다",
    e_room_join_object: "참가 요청은 이름이 있는 객체입니다", e_room_profile_object: "새 프로필은 이름이 있는 객체입니다",
    e_room_device: "기기는 '각자 자기 기기로' 또는 '휴대폰 하나를 돌려 가며'입니다", e_room_lang: "단어 묶음은 영어나 한국어입니다",
    e_room_seed_named: "이 서버는 모든 방을 무작위로 나눕니다: 딜 시드를 정할 수 없습니다",
    e_room_seed: "딜 시드는 0부터 2^64-1까지의 정수입니다", e_room_rooms_full: "서버에 열린 방이 너무 많습니다",
    e_room_bad_profile: "알 수 없는 프로필이거나 키가 틀렸습니다 (먼저 이 서버에서 프로필을 만드세요)",
    e_room_profiles_full: "이 서버에는 프로필이 {most}개 있습니다: 프로필 없이 하세요",
    e_room_unknown: "이 서버에 그런 방이 없습니다.", e_room_unknown_profile: "이 서버에 그런 프로필이 없습니다.",
    e_room_started: "게임이 이미 시작되었습니다: 이 방의 다음 게임에 참여할 수 있습니다",
    e_room_full: "방이 가득 찼습니다 ({n}명)", e_room_name_taken: "이 방에서 이미 쓰는 이름입니다: {name}. 다른 이름을 고르세요",
    e_room_profile_taken: "이 프로필은 이미 방에 있습니다",
    e_room_single_device: "이 방은 휴대폰 하나로 합니다: 방장이 그 휴대폰에서 플레이어를 추가합니다",
    e_name_length: "이름은 1~{most}자입니다", e_name_text: "이름은 1~24자의 글입니다",
    e_name_invisible: "이름에 제어 문자나 보이지 않는 문자를 쓸 수 없습니다",
    e_name_blank: "이름에 보이는 글자가 하나 이상 있어야 합니다 (공백만은 안 됩니다)",
  },
};

const post = (path, body) => api(path, { method: "POST", headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body) });
let CONFIG = null;
async function config() { if (!CONFIG) CONFIG = await api("/api/spyword/config"); return CONFIG; }
function field(label, control) { return el("label", { class: "field" }, el("span", {}, label), control); }
function select(id, options, value, disabled) {
  return el("select", { id, name: id, disabled: !!disabled },
    options.map(([v, label]) => el("option", { value: String(v), selected: String(v) === String(value) }, label)));
}

// ----- this browser's profiles and seats ----------------------------------------------------------
const store = {
  get(k, d) { try { return JSON.parse(localStorage.getItem(k)) || d; } catch (e) { return d; } },
  set(k, v) { localStorage.setItem(k, JSON.stringify(v)); },
};
const myProfile = () => store.get("cnlab-sw-profile", null);
const localProfiles = () => store.get("cnlab-sw-local", []);
function mySeat(code) { return store.get("cnlab-sw-rooms", {})[code] || null; }
function rememberSeat(code, member, token) {
  const all = store.get("cnlab-sw-rooms", {}); all[code] = { member, token }; store.set("cnlab-sw-rooms", all);
}
function forgetSeat(code) { const all = store.get("cnlab-sw-rooms", {}); delete all[code]; store.set("cnlab-sw-rooms", all); }
async function ensureProfile(name) {
  const p = myProfile();
  if (p && p.name === name) return p;
  const made = await post("/api/spyword/profiles", { name });
  const mine = { id: made.id, key: made.key, name };
  store.set("cnlab-sw-profile", mine);
  return mine;
}
async function localProfile(name) {  // a player at a single device: one profile per name on this device
  const all = localProfiles();
  const found = all.find((p) => p.name === name);
  if (found) return found;
  const made = await post("/api/spyword/profiles", { name });
  const p = { id: made.id, key: made.key, name };
  all.push(p); store.set("cnlab-sw-local", all);
  return p;
}

// ----- router -----------------------------------------------------------------------------------
let socket = null, ticker = null, rerender = route;
window.cnlabSpyView = null; window.cnlabSpyNotice = null;
function route() {
  if (socket) { socket.onclose = null; socket.close(); socket = null; }
  if (ticker) { clearInterval(ticker); ticker = null; }
  chrome();
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "room" && parts[1]) return roomView(parts[1].toUpperCase());
  if (parts[0] === "profile" && parts[1]) return profileView(parts[1]);
  if (parts[0] === "me") return profileView(myProfile() ? myProfile().id : null);
  return homeView();
}
function chrome() {
  document.documentElement.lang = UI;
  for (const n of document.querySelectorAll("[data-t]")) n.textContent = t(n.dataset.t);
  for (const b of document.querySelectorAll("[data-ui]")) b.classList.toggle("on", b.dataset.ui === UI);
}
window.addEventListener("hashchange", route);
for (const b of document.querySelectorAll("[data-ui]")) {
  b.addEventListener("click", () => { UI = b.dataset.ui; localStorage.setItem("cnlab-ui", UI); chrome(); rerender(); });
}

// ----- home: profile, create, join --------------------------------------------------------------
async function homeView() {
  rerender = homeView;
  const p = myProfile();
  const err = el("p", { id: "home-error", class: "error", hidden: true });
  const fail = (e) => { err.hidden = false; err.textContent = failText(e); };
  const nameInput = el("input", { id: "profile-name", maxlength: 24, value: p ? p.name : "", autocomplete: "off" });
  const name = () => nameInput.value.trim();
  const createBox = el("form", { id: "create-form", class: "panel" },
    el("h3", {}, t("create_title")),
    field(t("device"), select("device", [["multi", t("d_multi")], ["single", t("d_single")]], "multi")),
    field(t("words_lang"), select("room-lang", [["en", t("lang_en")], ["ko", t("lang_ko")]], UI)),
    el("button", { id: "create-room", type: "submit", class: "primary" }, t("create")));
  createBox.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!name()) return fail(new Error(t("need_name")));
    try {
      const prof = await ensureProfile(name());
      const made = await post("/api/spyword/rooms", { name: name(), device: $("#device").value,
        lang: $("#room-lang").value, profile: { id: prof.id, key: prof.key } });
      rememberSeat(made.code, made.member, made.token);
      location.hash = "#/room/" + made.code;
    } catch (e) { fail(e); }
  });
  const joinBox = el("form", { id: "join-form", class: "panel" },
    el("h3", {}, t("join_title")),
    field(t("room_code"), el("input", { id: "join-code", maxlength: 8, autocomplete: "off",
      style: "text-transform: uppercase" })),
    el("button", { id: "join", type: "submit", class: "primary" }, t("join")));
  joinBox.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const code = $("#join-code").value.trim().toUpperCase();
    if (code) location.hash = "#/room/" + code;
  });
  main().replaceChildren(el("h1", {}, t("home_title")), err,
    el("div", { class: "home" },
      el("div", { class: "panel", id: "profile-box" }, el("h3", {}, t("profile_title")),
        field(t("your_name"), nameInput),
        p ? el("p", {}, el("a", { href: "#/profile/" + p.id, id: "my-profile-link" }, t("profile"))) : null),
      createBox, joinBox));
}

async function joinRoom(code) {
  const err = el("p", { id: "join-error", class: "error", hidden: true });
  const p = myProfile();
  const nameInput = el("input", { id: "join-name", maxlength: 24, value: p ? p.name : "", autocomplete: "off" });
  const form = el("form", { id: "join-room", class: "panel" }, el("h2", {}, t("room", { code })),
    field(t("your_name"), nameInput), err, el("button", { id: "join-send", type: "submit", class: "primary" }, t("join")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = nameInput.value.trim();
    if (!name) { err.hidden = false; err.textContent = t("need_name"); return; }
    try {
      const prof = await ensureProfile(name);
      const made = await post("/api/spyword/rooms/" + encodeURIComponent(code) + "/join",
        { name, profile: { id: prof.id, key: prof.key } });
      rememberSeat(made.code, made.member, made.token);
      route();
    } catch (e) { err.hidden = false; err.textContent = failText(e); }
  });
  main().replaceChildren(form);
}

// ----- a room -------------------------------------------------------------------------------------
let ROOM = null, RECEIVED = 0, WORD_HIDDEN = false;
function roomView(code) {
  const seat = mySeat(code);
  if (!seat) return joinRoom(code);
  rerender = () => { if (ROOM) drawRoom(ROOM); };
  main().replaceChildren(el("p", { class: "dim" }, t("room", { code })));
  connect(code, seat.token);
  ticker = setInterval(tick, 250);
}
function connect(code, token) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/spyword/${encodeURIComponent(code)}?token=${encodeURIComponent(token)}`);
  socket = ws;
  let fatal = false;
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "room") {
      ROOM = msg.room; RECEIVED = performance.now(); window.cnlabSpyView = msg.room; drawRoom(msg.room);
    } else if (msg.type === "error") {
      window.cnlabSpyNotice = msg;
      if (msg.code === "unknown_room" || msg.code === "bad_token") {
        fatal = true; forgetSeat(code);
        main().replaceChildren(el("p", { id: "notice", class: "error" }, t(msg.code)),
          el("p", {}, el("a", { href: "#/" }, t("nav_home"))));
      } else if (seatIsFull(msg, !!(ROOM && ROOM.code === code), el("p", { id: "notice", class: "error" }),
                            el("p", {}, el("a", { href: "#/" }, t("nav_home"))))) {
        fatal = true;   // the seat is kept
      } else showNotice(msg);
    } else if (msg.type === "gone") {
      fatal = true; forgetSeat(code); window.cnlabSpyGone = msg.reason;
      main().replaceChildren(el("p", { id: "gone", class: "panel" }, t("gone_" + msg.reason)),
        el("p", {}, el("a", { href: "#/" }, t("nav_home"))));
    }
  };
  ws.onclose = () => {
    if (fatal || socket !== ws) return;
    const n = $("#notice"); if (n) { n.className = "error"; n.textContent = t("reconnecting"); }
    setTimeout(() => { if (socket === ws) connect(code, token); }, 1000);
  };
}
// every message names the room's stage it was sent at: one sent twice (a double click, a page that
// re-sends after a reconnect) or arriving after the game moved on (a vote of an earlier round) is refused
function send(msg) {
  window.cnlabSpyNotice = null;
  const n = $("#notice"); if (n) { n.textContent = ""; n.className = ""; }
  const out = ROOM && ROOM.stage ? { ...msg, stage: ROOM.stage } : msg;
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(out));
}
function showNotice(msg) {
  const n = $("#notice");
  if (!n) return;
  n.className = "error";
  n.textContent = t("refused") + (msg.rule ? " (" + t("rule", { rule: msg.rule }) + ")" : "") + ": " + frameText(msg);
}

// A room's refusals and notices (a refused move, a stopped bot, the role counts) come worded in the room's
// language by the server, from its kind (messages.REFUSALS, engine/refusals.py): nothing to read here.
const SERVER_TEXTS = [];
// What the server refused over HTTP ({error, kind, fields}: joining or creating a room, a profile): worded
// by its kind from the table (e_KIND) in the interface's language; the English page, or a reply of no known
// kind, shows the server's words.
function replyText(reply) {
  const key = "e_" + reply.kind;
  if (UI === "en" || !reply.kind || !(TEXT[UI] && TEXT[UI][key])) return reply.error;
  return t(key, reply.fields || {});
}
const failText = (e) => (e.reply ? replyText(e.reply) : e.message || String(e));
function tick() {
  const r = ROOM;
  const box = $("#timer");
  if (!r || !box) return;
  if (r.timer) {
    const left = Math.max(0, r.timer.left - (performance.now() - RECEIVED) / 1000);
    box.textContent = t("secs", { n: Math.ceil(left) });
    box.classList.toggle("low", left <= 10);
  }
  const ho = $("#host-offline-left");
  if (ho && r.host_offline && r.host_offline.replaced_in !== null) {
    ho.textContent = Math.ceil(Math.max(0, r.host_offline.replaced_in - (performance.now() - RECEIVED) / 1000));
  }
}

function nameOf(r, id) {
  if (id === "PASS") return t("pass");
  const m = r.members.find((x) => x.id === id);
  if (!m) return id;
  return m.kind === "bot" ? t("bot_name", { n: m.n }) : m.name;
}
function roleName(role) { return t("role_" + role); }
function titleName(id) {
  const ti = CONFIG && CONFIG.titles.find((x) => x.id === id);
  return ti ? (UI === "ko" ? ti.ko : ti.en) : id;
}

function membersPanel(r, g) {
  const order = g && g.order && g.order.length ? g.order : r.members.map((m) => m.id);
  const byId = Object.fromEntries(r.members.map((m) => [m.id, m]));
  const ids = order.concat(r.members.map((m) => m.id).filter((id) => !order.includes(id)));
  const out = new Set(g ? g.eliminated.map((e) => e.seat) : []);
  const roles = {};
  if (g) for (const e of g.eliminated) if (e.role) roles[e.seat] = e.role;
  if (g && g.report) Object.assign(roles, g.report.roles);
  const me = r.me;
  const lis = ids.filter((id) => byId[id]).map((id) => {
    const m = byId[id];
    const badge = m.badge ? t("level", { n: m.badge.level }) + (m.badge.title ? " · " + titleName(m.badge.title) : "") : "";
    const kick = r.phase === "lobby" && r.me === r.host && id !== r.me && m.kind === "person"
      ? el("button", { class: "kick", "data-target": id, type: "button", onclick: () => send({ type: "kick", target: id }) },
        r.device === "single" ? t("remove") : t("kick"))
      : (g && g.you && g.you.kick && g.you.kick.includes(id)
        ? el("button", { class: "kick", "data-target": id, type: "button", onclick: () => send({ type: "kick", target: id }) }, t("kick"))
        : null);
    return el("li", { class: ["member", id === me ? "me" : "", out.has(id) ? "out" : "",
      g && g.to_act.includes(id) ? "to-act" : ""].join(" "), "data-id": id },
      el("span", { class: "dot" + (m.connected ? " on" : ""), title: m.connected ? "" : t("offline") }),
      el("span", { class: "name" }, nameOf(r, id)),
      id === r.host ? el("span", { class: "tag" }, t("host")) : null,
      id === me ? el("span", { class: "tag" }, t("you")) : null,
      roles[id] ? el("span", { class: "tag role-" + roles[id] }, roleName(roles[id])) : null,
      m.departed ? el("span", { class: "tag" }, t("left")) : null,
      r.thinking === id ? el("span", { class: "tag" }, "…") : null,
      kick, badge ? el("span", { class: "badge" }, badge) : null);
  });
  return el("div", { class: "panel", id: "members-panel" }, el("h3", {}, t("players_in")), el("ul", { id: "members", class: "members" }, lis));
}

function drawRoom(r) {
  if (!CONFIG) { config().then(() => drawRoom(ROOM)); return; }
  const notice = el("p", { id: "notice" });
  const head = el("div", { class: "status" },
    el("h2", {}, t("room", { code: "" }), el("span", { id: "room-code", class: "code" }, r.code)),
    r.error ? el("p", { class: "error", id: "room-error" }, t("stopped", { error: r.error })) : null);
  let body;
  if (r.phase === "lobby") body = lobby(r);
  else if (r.phase === "over") body = r.game ? endScreen(r) : [el("p", { class: "dim" }, t("lobby_wait"))];
  else body = r.device === "single" ? singleGame(r) : multiGame(r);
  const side = [membersPanel(r, r.game)];
  if (r.game && r.phase !== "lobby") side.push(cluesPanel(r, r.game), votesPanel(r, r.game));
  // what the player was typing survives a redraw (a frame arrives whenever anything changes)
  const kept = {};
  for (const id of ["clue-text", "guess-text", "add-name"]) { const n = document.getElementById(id); if (n) kept[id] = n.value; }
  const focused = document.activeElement && document.activeElement.id;
  main().replaceChildren(head, notice, el("div", { class: "sw" }, el("div", {}, body), el("div", {}, side)));
  for (const [id, value] of Object.entries(kept)) { const n = document.getElementById(id); if (n) n.value = value; }
  if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
  if (window.cnlabSpyNotice) showNotice(window.cnlabSpyNotice);
  tick();
}

// ----- lobby ---------------------------------------------------------------------------------------
function lobby(r) {
  const host = r.me === r.host || (r.device === "single");
  const s = r.settings;
  const dis = !host;
  const link = location.origin + "/spyword#/room/" + r.code;
  const people = r.members.filter((m) => m.kind === "person").length;
  const seats = []; for (let n = Math.max(4, people); n <= 12; n++) seats.push([n, String(n)]);
  const change = (msg) => send({ type: "settings", ...msg });
  const set = (key, value) => change({ settings: { [key]: value } });
  const bool = (v) => [["true", t("yes")], ["false", t("no")]];
  const settings = el("div", { class: "settings-grid", id: "settings" },
    field(t("players"), select("players", seats, r.players, dis)),
    field(t("bot"), select("bot", CONFIG.bots.map((b) => [b, t("b_" + b)]), r.bot, dis)),
    field(t("words_lang"), select("lang", [["en", t("lang_en")], ["ko", t("lang_ko")]], r.lang, dis)),
    field(t("s_minority"), select("set-minority", [["auto", t("auto")], [1, "1"], [2, "2"], [3, "3"]],
      s.minority === null ? "auto" : s.minority, dis)),
    field(t("s_ghost"), select("set-ghost", [["auto", t("auto")], ["true", t("yes")], ["false", t("no")]],
      s.ghost === null ? "auto" : String(s.ghost), dis)),
    field(t("s_tell_minority"), select("set-tell_minority", bool(), String(s.tell_minority), dis)),
    field(t("s_reveal_eliminated_role"), select("set-reveal_eliminated_role", bool(), String(s.reveal_eliminated_role), dis)),
    field(t("s_vote_display"), select("set-vote_display", [["public", t("v_public")], ["counts", t("v_counts")]], s.vote_display, dis)),
    field(t("s_allow_pass"), select("set-allow_pass", bool(), String(s.allow_pass), dis)),
    field(t("s_clue_mode"), select("set-clue_mode", [["word", t("c_word")], ["sentence", t("c_sentence")]], s.clue_mode, dis)),
    field(t("s_discussion_seconds"), select("set-discussion_seconds",
      [[60, t("secs", { n: 60 })], [90, t("secs", { n: 90 })], [120, t("secs", { n: 120 })], ["unlimited", t("unlimited")]],
      s.discussion_seconds, dis)),
    field(t("s_tie_break"), select("set-tie_break", [["duel", t("t_duel")], ["lottery", t("t_lottery")]], s.tie_break, dis)));
  settings.addEventListener("change", (ev) => {
    const id = ev.target.id, v = ev.target.value;
    if (id === "players") return change({ players: Number(v) });
    if (id === "bot") return change({ bot: v });
    if (id === "lang") return change({ lang: v });
    const key = id.slice(4);
    let value = v;
    if (v === "auto") value = null;
    else if (v === "true" || v === "false") value = v === "true";
    else if (/^\d+$/.test(v)) value = Number(v);
    set(key, value);
  });
  const parts = [el("div", { class: "panel" },
    r.device === "multi" ? el("div", { class: "join-row" }, el("span", {}, t("join_link") + ": "),
      el("input", { id: "join-link", class: "join-link", readonly: true, value: link }),
      el("button", { type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(link) }, t("copy")))
      : null,
    el("h3", {}, t("settings")), settings,
    r.role_problem ? el("p", { class: "error", id: "role-problem" }, r.role_problem) : null,
    host ? el("button", { id: "start", type: "button", class: "primary", disabled: !!r.role_problem,
      onclick: () => send({ type: "start" }) }, t("start")) : el("p", { class: "dim" }, t("lobby_wait")))];
  if (r.device === "single") {
    const input = el("input", { id: "add-name", maxlength: 24, autocomplete: "off" });
    const form = el("form", { id: "add-form", class: "panel clue-form" }, el("label", {}, t("add_player")), input,
      el("button", { id: "add-player", type: "submit" }, t("add")));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      try {
        const p = await localProfile(name);
        send({ type: "add_player", name, profile: { id: p.id, key: p.key } });
      } catch (e) { showNotice({ message: e.message }); }
    });
    parts.push(form);
  } else {
    parts.push(el("button", { id: "leave", type: "button", onclick: () => send({ type: "leave" }) }, t("leave")));
  }
  return parts;
}

// ----- the game --------------------------------------------------------------------------------
function phaseLine(r, g) {
  return el("p", { class: "turn", id: "phase", "data-phase": g.phase },
    (g.round ? t("round", { n: g.round }) + " · " : "") + t("phase_" + g.phase), " ",
    r.timer ? el("span", { id: "timer", class: "timer", "data-kind": r.timer.kind }) : null);
}
function cardPanel(p, title) {  // one seat's card: its word (or the ghost's note) and what it is told
  const classes = ["mycard", p.word === null ? "ghost" : "", WORD_HIDDEN ? "hidden-word" : ""].join(" ");
  const role = p.role && p.role !== "citizen" ? (p.role === "spy" ? t("you_are_spy") : null) : null;
  return el("div", { id: "card", class: classes, "data-seat": p.seat },
    title ? el("div", { class: "dim" }, title) : null,
    p.word !== null ? [el("div", { class: "dim" }, t("your_word")), el("div", { class: "word", id: "my-word" }, p.word)]
      : el("div", { class: "word", id: "my-word" }, "?"),
    p.word === null ? el("p", { id: "ghost-note" }, t("no_word")) : null,
    role ? el("p", { class: "role", id: "my-role" }, role) : null,
    p.role && p.spectator ? el("p", { class: "role", id: "my-role" }, t("role_is", { role: roleName(p.role) })) : null);
}
function actions(r, g, p) {  // what the seat (p: its private view) may do now
  const you = p.you || {};
  const parts = [];
  if (you.ready) {
    parts.push(el("button", { id: "ready", type: "button", class: "primary", onclick: () => send({ type: "ready", seat: p.seat }) }, t("got_it")));
  }
  if (you.clue) {
    const input = el("input", { id: "clue-text", maxlength: you.clue === "word" ? 40 : 200, autocomplete: "off",
      placeholder: t(you.clue === "word" ? "clue_word_ph" : "clue_sentence_ph") });
    const form = el("form", { class: "clue-form", id: "clue-form" }, el("label", { for: "clue-text" }, t("your_clue")), input,
      el("button", { id: "clue-send", type: "submit", class: "primary" }, t("give")));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault(); send({ type: "clue", text: input.value, seat: p.seat });
    });
    parts.push(form);
    setTimeout(() => { const i = $("#clue-text"); if (i && document.activeElement !== i) i.focus(); }, 0);
  }
  if (you.vote) {
    parts.push(el("p", {}, t("vote_for")), el("div", { class: "vote-buttons", id: "vote-buttons" },
      you.vote.map((c) => el("button", { type: "button", class: "vote-btn", "data-target": c,
        onclick: () => send({ type: "vote", target: c, seat: p.seat }) }, nameOf(r, c)))));
  }
  if (p.my_vote) parts.push(el("p", { id: "my-vote" }, t("your_vote", { who: nameOf(r, p.my_vote) })));
  if (you.guess) {
    const input = el("input", { id: "guess-text", maxlength: 40, autocomplete: "off" });
    const form = el("form", { class: "clue-form", id: "guess-form" }, el("label", {}, t("guess_title")), input,
      el("button", { id: "guess-send", type: "submit", class: "primary" }, t("guess")));
    form.addEventListener("submit", (ev) => { ev.preventDefault(); send({ type: "guess", word: input.value, seat: p.seat }); });
    parts.push(form);
  }
  if (you.dismiss) {
    parts.push(el("p", { id: "screen-role" }, t("screen_role", { role: roleName(p.private_screen.role) })),
      el("button", { id: "dismiss", type: "button", onclick: () => send({ type: "dismiss", seat: p.seat }) }, t("dismiss")));
  }
  return parts;
}
function tableLine(r, g) {  // what the table is doing (public)
  const lines = [];
  if (g.phase === "ready") lines.push(t("ready_wait", { who: g.to_act.map((s) => nameOf(r, s)).join(", ") }));
  if ((g.phase === "clues" || g.phase === "duel_clues") && g.speaker) {
    lines.push(g.speaker === r.me ? t("your_turn") : t("speaking", { who: nameOf(r, g.speaker) }));
  }
  if (g.phase === "duel_clues" || g.phase === "duel_vote") lines.push(t("duel", { who: g.duel.map((s) => nameOf(r, s)).join(", ") }));
  if (g.phase === "discussion") lines.push(r.device === "single" ? t("discussion_single") : t("discussion"));
  if (g.phase === "vote" || g.phase === "duel_vote") {
    lines.push(t("vote_wait", { n: g.voted.length, m: g.voted.length + g.to_act.length }));
  }
  if (g.phase === "ghost_guess" || g.phase === "private_screen") lines.push(t("waiting_screen", { who: nameOf(r, g.to_act[0]) }));
  if (r.thinking) lines.push(t("thinking", { who: nameOf(r, r.thinking) }));
  return el("div", { id: "table-line" }, lines.map((l) => el("p", {}, l)));
}
function hostOffline(r) {  // RULES 5.12: told after 1 minute; the countdown to the new host
  if (!r.host_offline) return null;
  const [before, after] = ((TEXT[UI] && TEXT[UI].host_offline) || TEXT.en.host_offline).split("{n}");
  const left = r.host_offline.replaced_in === null ? "" : String(Math.ceil(r.host_offline.replaced_in));
  return el("p", { id: "host-offline", class: "host-offline" }, before, el("span", { id: "host-offline-left" }, left), after || "");
}
function multiGame(r) {
  const g = r.game;
  if (!g) return [el("p", { class: "dim" }, t("lobby_wait"))];
  const hide = el("button", { type: "button", id: "toggle-word", onclick: () => { WORD_HIDDEN = !WORD_HIDDEN; drawRoom(ROOM); } },
    WORD_HIDDEN ? t("show_word") : t("hide_word"));
  const you = g.you || {};
  return [
    phaseLine(r, g), hostOffline(r), cardPanel(g), el("p", {}, hide),
    tableLine(r, g), el("div", { class: "controls", id: "controls" }, actions(r, g, g),
      you.start_vote ? el("button", { id: "start-vote", type: "button", class: "primary", onclick: () => send({ type: "start_vote" }) }, t("start_vote")) : null),
    you.leave ? el("p", {}, el("button", { id: "leave", type: "button", onclick: () => send({ type: "leave" }) }, t("leave"))) : null,
  ];
}
function singleGame(r) {
  const g = r.game;
  const parts = [phaseLine(r, g)];
  if (r.private) {
    const p = r.private;
    parts.push(el("div", { class: "panel private", id: "private" }, cardPanel(p, t("card_of", { who: nameOf(r, p.seat) })),
      el("div", { class: "controls" }, actions(r, g, p)),
      el("button", { id: "hide", type: "button", onclick: () => send({ type: "hide" }) }, t("hide"))));
    return parts;
  }
  parts.push(tableLine(r, g));
  const waiting = (r.waiting || []).filter((s) => !(g.phase === "discussion"));
  if (waiting.length) {
    const who = waiting[0];
    parts.push(el("div", { class: "panel", id: "pass" }, el("p", { class: "pass-to", id: "pass-to", "data-seat": who },
      t("pass_to", { who: nameOf(r, who) })),
      el("button", { class: "primary show-btn", type: "button", "data-seat": who, onclick: () => send({ type: "show", seat: who }) },
        t("im", { who: nameOf(r, who) }))));
  } else if (g.phase !== "discussion") {
    parts.push(el("p", { class: "dim" }, t("single_wait")));
  }
  if (g.phase === "discussion") {
    parts.push(el("button", { id: "start-vote", type: "button", class: "primary", onclick: () => send({ type: "start_vote" }) }, t("start_vote")));
  }
  const out = new Set(g.eliminated.map((e) => e.seat));
  const people = r.members.filter((m) => m.kind === "person" && !out.has(m.id));
  if (g.phase !== "ready" && people.length) {
    parts.push(el("p", { id: "peek" }, t("peek"), " ", people.map((m) => el("button", { type: "button", class: "peek-btn",
      "data-seat": m.id, onclick: () => send({ type: "show", seat: m.id }) }, m.name))));
  }
  return parts;
}

function cluesPanel(r, g) {
  const rows = g.clues.map((c) => el("tr", { class: "clue-row", "data-seat": c.seat },
    el("td", {}, String(c.round) + (c.duel ? "*" : "")), el("td", {}, nameOf(r, c.seat)),
    el("td", { class: "clue-word" }, c.clue === null ? t("no_clue") : c.clue)));
  return el("div", { class: "panel", id: "clues" }, el("h3", {}, t("clues_title")),
    el("table", { class: "clues-table" }, el("tbody", {}, rows)));
}
function voteLine(r, v) {
  const outcome = v.outcome === "eliminated" ? t("o_eliminated", { who: nameOf(r, v.eliminated) })
    : v.outcome === "pass" ? t("o_pass") : v.outcome === "duel" ? t("o_duel")
      : v.outcome === "lots" ? t("o_lots", { who: nameOf(r, v.eliminated) }) : t("o_departed");
  const detail = v.votes ? Object.entries(v.votes).map(([a, b]) => nameOf(r, a) + "→" + nameOf(r, b)).join(", ")
    : Object.entries(v.counts || {}).filter(([, n]) => n).map(([s, n]) => nameOf(r, s) + " " + n).join(", ")
      + (v.pass ? ", PASS " + v.pass : "");
  return el("li", { class: "vote-entry", "data-round": v.round, "data-outcome": v.outcome },
    el("b", {}, t("round", { n: v.round }) + (v.kind === "duel" ? " (" + t("t_duel") + ")" : "") + ": " + outcome),
    detail ? el("div", { class: "dim" }, detail) : null);
}
function votesPanel(r, g) {  // each round's votes, departures and the ghost's guess, in round order
  const items = g.votes.map((v, i) => [v.round, 0, i, voteLine(r, v)]);
  g.eliminated.forEach((e, i) => {
    if (e.by === "leave" || e.by === "kick") {
      items.push([e.round, 1, i, el("li", { class: "departure" },
        t("out", { who: nameOf(r, e.seat), role: "" }) + " (" + t("out_by_" + e.by) + ")")]);
    }
  });
  g.ghost_guesses.forEach((gg, i) => {
    items.push([gg.round, 2, i, el("li", { class: "ghost-guess" }, t("ghost_guessed", {
      word: gg.guess === null ? t("no_guess") : gg.guess, result: gg.right ? t("right") : t("wrong") }))]);
  });
  items.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  return el("div", { class: "panel", id: "votes" }, el("h3", {}, t("votes_title")), el("ol", {}, items.map((x) => x[3])));
}

function endScreen(r) {
  const g = r.game, rep = g.report;
  const win = rep.winner ? t("w_" + rep.winner) : t("w_none");
  const mine = r.me && r.result ? r.result[r.me] : null;
  const results = r.device === "single" ? Object.entries(r.result || {}) : (mine ? [[r.me, mine]] : []);
  const xp = results.map(([seat, res]) => el("li", { class: "xp-line", "data-seat": seat },
    (r.device === "single" ? nameOf(r, seat) + ": " : "") + t("xp_gained", { xp: res.xp, level: res.level }),
    res.level_up ? " · " + t("level_up") : "",
    res.new_titles.length ? " · " + res.new_titles.map((x) => t("new_title", { title: titleName(x) })).join(", ") : ""));
  return [el("div", { class: "panel end", id: "end" },
    el("h2", { id: "winner", "data-winner": rep.winner || "" }, win),
    el("div", { class: "end-words", id: "words" },
      el("span", {}, t("citizen_word") + ": ", el("b", { id: "citizen-word" }, rep.citizen_word)),
      el("span", {}, t("spy_word") + ": ", el("b", { id: "spy-word" }, rep.spy_word)),
      r.category ? el("span", {}, t("category") + ": " + r.category) : null),
    el("h3", {}, t("roles_title")),
    el("ul", { id: "roles" }, Object.entries(rep.roles).map(([s, role]) => el("li", { "data-seat": s, "data-role": role },
      nameOf(r, s) + ": " + roleName(role) + (rep.winners.includes(s) ? " ★" : "")))),
    xp.length ? el("ul", { id: "xp" }, xp) : null,
    (g.settings || {}).vote_display === "counts" ? null   // who voted for whom stays secret: no record to download
      : el("p", {}, el("a", { id: "record-link", href: "/api/spyword/games/" + r.game_id + "/record", download: r.game_id + ".json" }, t("record_link"))),
    r.me === r.host || r.device === "single"
      ? el("button", { id: "again", type: "button", class: "primary", onclick: () => send({ type: "again" }) }, t("again")) : null)];
}

// ----- profiles -----------------------------------------------------------------------------------
async function profileView(pid) {
  rerender = () => profileView(pid);
  if (!pid) { main().replaceChildren(el("p", { id: "profile-page" }, t("no_profile"))); return; }
  await config();
  let p;
  try { p = await api("/api/spyword/profiles/" + encodeURIComponent(pid)); } catch (e) {
    main().replaceChildren(el("p", { class: "error", id: "profile-page" }, failText(e))); return;
  }
  const s = p.stats;
  const span = Math.max(1, p.next_level_xp - p.level_xp);
  const earned = new Set(p.titles.map((x) => x.id));
  const roles = ["citizen", "spy", "ghost"];
  const keys = ["games", "wins", "losses", "left", "eliminated", "survived", "votes", "votes_right", "ghost_guesses", "ghost_right", "xp"];
  const label = (k) => (k === "left" ? t("left_games") : k === "xp" ? "XP" : t(k));
  main().replaceChildren(el("div", { id: "profile-page", class: "panel", "data-id": p.id },
    el("h1", { id: "p-name" }, p.name),
    el("p", { id: "p-level", "data-level": p.level }, t("level", { n: p.level }), " · ",
      el("span", { id: "p-xp", "data-xp": p.xp }, t("xp", { xp: p.xp })),
      p.title ? [" · ", el("b", { id: "p-title", "data-title": p.title }, titleName(p.title))] : null),
    el("div", { class: "xp-bar" }, el("span", { style: `width: ${Math.min(100, 100 * (p.xp - p.level_xp) / span)}%` })),
    el("p", { class: "dim" }, t("next_level", { n: p.next_level_xp - p.xp, l: p.level + 1 }), " · ",
      t("streak", { n: s.streak, b: s.best_streak }), " · ", t("win_rate") + ": " + (s.win_rate === null ? "-" : Math.round(100 * s.win_rate) + "%")),
    el("h3", {}, t("titles")),
    el("ul", { id: "p-titles", class: "titles" }, CONFIG.titles.map((ti) => el("li", { "data-title": ti.id,
      class: earned.has(ti.id) ? "earned" : "locked" }, (earned.has(ti.id) ? "★ " : "☆ ") + (UI === "ko" ? ti.ko : ti.en),
      el("span", { class: "dim" }, " (" + (UI === "ko" ? ti.rule_ko : ti.rule_en) + ")")))),
    el("h3", {}, t("stats")),
    el("table", { id: "p-stats", class: "games" },
      el("thead", {}, el("tr", {}, el("th", {}, ""), roles.map((role) => el("th", {}, roleName(role))), el("th", {}, t("total")))),
      el("tbody", {}, keys.map((k) => el("tr", { "data-stat": k }, el("th", {}, label(k)),
        roles.map((role) => el("td", { "data-role": role }, String(s.by_role[role][k]))),
        el("td", { "data-role": "all" }, String(roles.reduce((a, role) => a + s.by_role[role][k], 0)))))))));
}

route();
