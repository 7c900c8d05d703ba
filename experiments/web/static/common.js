// Shared by the game pages (app.js) and Spy's Word (spyword.js): the interface language, the
// text lookup (each page defines its own TEXT and SERVER_TEXTS tables), DOM and fetch helpers.
function uiLang() {
  const q = new URLSearchParams(location.search).get("ui");
  if (q === "en" || q === "ko") { localStorage.setItem("cnlab-ui", q); return q; }
  const saved = localStorage.getItem("cnlab-ui");
  if (saved === "en" || saved === "ko") return saved;
  return (navigator.language || "en").toLowerCase().startsWith("ko") ? "ko" : "en";
}
let UI = uiLang();

function t(key, vars) {
  let s = (TEXT[UI] && TEXT[UI][key]) || TEXT.en[key] || key;
  for (const [k, v] of Object.entries(vars || {})) s = s.split("{" + k + "}").join(String(v));
  return s;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}
const $ = (sel) => document.querySelector(sel);
const main = () => $("#main");

async function api(path, options) {
  const res = await fetch(path, options);
  let body = null;
  try { body = await res.json(); } catch (e) { body = { error: res.statusText }; }
  if (!res.ok) {   // the reply goes with it: a refused setting's kind words it in the page's language
    const err = new Error(body && body.error ? body.error : res.statusText);
    err.reply = body && body.error ? body : null;
    throw err;
  }
  return body;
}

// What the server words in English, in the interface's language: each page's SERVER_TEXTS lists
// [pattern, text key, the key's fields from the match]; a text it does not know is shown as sent.
function serverText(text) {
  if (UI === "en" || !text) return text || "";
  for (const [pattern, key, fields] of SERVER_TEXTS) {
    const m = pattern.exec(text);
    if (m) return t(key, fields(m));
  }
  return text;
}

// The refusals both servers send whatever the board's language (messages.REFUSALS), by kind, in the
// interfaces' languages other than English (an English page shows the server's words).
const FRAME_TEXTS = {
  ko: {
    too_many_sockets: "이 자리는 페이지 {n}개가 열려 있습니다: 하나를 먼저 닫으세요",
  },
};

// A refusal frame of the server ({message, kind, fields}) in the interface's language: by its kind from the
// table above or the page's own (k_KIND) where one has it; else its message (worded in the board's language
// by the server) through serverText.
function frameText(msg) {
  if (UI === "ko" && msg.message_ko) return msg.message_ko;   // a Spy's Word room words it for a Korean page too
  const line = msg.kind && UI !== "en" && ((FRAME_TEXTS[UI] || {})[msg.kind] || (TEXT[UI] || {})["k_" + msg.kind]);
  if (!line) return serverText(msg.message);
  let s = line;
  for (const [k, v] of Object.entries(msg.fields || {})) s = s.split("{" + k + "}").join(String(v));
  return s;
}

// A socket refused because its seat has every place taken (too_many_sockets) before the page showed
// anything: the page showed "loading" for ever, trying again every second. It says why in `box`
// (then `after`) and the caller stops trying (true); a page already showing its game keeps trying,
// as after a network drop.
function seatIsFull(msg, shown, box, ...after) {
  if (msg.code !== "too_many_sockets" || shown) return false;
  box.append(frameText(msg));
  main().replaceChildren(box, ...after);
  return true;
}
