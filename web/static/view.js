// battlepost's web view: pan and zoom the map, show unit cards, replay the log, stay live.
// The server sends every piece of the page as escaped HTML; this script only moves and swaps those pieces.
"use strict";

(function () {
  const body = document.body;
  const frameUrl = body.dataset.frame;
  const eventsUrl = body.dataset.events;
  if (!frameUrl) return;
  let steps = Number(body.dataset.steps || 0);
  let step = steps;
  let live = true;
  let box = null; // the map's viewBox {x, y, w, h}
  let whole = null;
  let loading = 0;

  const $ = (id) => document.getElementById(id);

  // --- times in the viewer's own zone ------------------------------------------------------
  const format = new Intl.DateTimeFormat(undefined, {
    year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short",
  });
  function localTimes(root) {
    for (const el of root.querySelectorAll("time[datetime]")) {
      const when = new Date(el.getAttribute("datetime"));
      if (!isNaN(when)) el.textContent = format.format(when);
    }
  }

  // --- the map: pan and zoom ---------------------------------------------------------------
  function svg() { return $("map-svg"); }
  function setBox() {
    const s = svg();
    if (s && box) s.setAttribute("viewBox", `${box.x} ${box.y} ${box.w} ${box.h}`);
  }
  function readWhole() {
    const s = svg();
    if (!s) { whole = null; return; }
    const v = s.getAttribute("viewBox").split(" ").map(Number);
    const next = { x: v[0], y: v[1], w: v[2], h: v[3] };
    if (!whole || whole.w !== next.w || whole.h !== next.h) {
      whole = next; box = { ...next };
    }
    // The map's frame takes the map's shape (set here: the page allows no inline styles).
    const frame = $("map");
    if (frame) frame.style.aspectRatio = `${next.w} / ${next.h}`;
    setBox();
  }
  function clamp() {
    if (!whole) return;
    box.w = Math.min(Math.max(box.w, whole.w / 40), whole.w * 1.5);
    box.h = box.w * whole.h / whole.w;
    box.x = Math.min(Math.max(box.x, whole.x - box.w * 0.5), whole.x + whole.w - box.w * 0.5);
    box.y = Math.min(Math.max(box.y, whole.y - box.h * 0.5), whole.y + whole.h - box.h * 0.5);
  }
  function zoom(factor, cx, cy) {
    if (!box) return;
    const px = cx === undefined ? box.x + box.w / 2 : cx;
    const py = cy === undefined ? box.y + box.h / 2 : cy;
    box.x = px - (px - box.x) * factor; box.y = py - (py - box.y) * factor;
    box.w *= factor; box.h *= factor;
    clamp(); setBox();
  }
  function pan(dx, dy) { if (!box) return; box.x += dx; box.y += dy; clamp(); setBox(); }
  function toMap(evt) {
    const s = svg(); const r = s.getBoundingClientRect();
    return { x: box.x + (evt.clientX - r.left) / r.width * box.w, y: box.y + (evt.clientY - r.top) / r.height * box.h,
      scale: box.w / r.width };
  }

  const pointers = new Map();
  let pinch = 0;
  let dragged = false;
  function wire(map) {
    map.addEventListener("wheel", (evt) => {
      if (!svg()) return;
      evt.preventDefault();
      const p = toMap(evt);
      zoom(evt.deltaY > 0 ? 1.2 : 1 / 1.2, p.x, p.y);
    }, { passive: false });
    map.addEventListener("pointerdown", (evt) => {
      pointers.set(evt.pointerId, { x: evt.clientX, y: evt.clientY });
      dragged = false;
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = Math.hypot(a.x - b.x, a.y - b.y);
      }
    });
    map.addEventListener("pointermove", (evt) => {
      const last = pointers.get(evt.pointerId);
      if (!last || !svg()) return;
      const r = svg().getBoundingClientRect();
      if (pointers.size === 1) {
        const dx = evt.clientX - last.x; const dy = evt.clientY - last.y;
        if (Math.abs(dx) + Math.abs(dy) > 3) dragged = true;
        if (dragged) { map.setPointerCapture(evt.pointerId); pan(-dx / r.width * box.w, -dy / r.height * box.h); }
      }
      pointers.set(evt.pointerId, { x: evt.clientX, y: evt.clientY });
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a.x - b.x, a.y - b.y);
        if (pinch > 0 && d > 0) {
          const mid = toMap({ clientX: (a.x + b.x) / 2, clientY: (a.y + b.y) / 2 });
          zoom(pinch / d, mid.x, mid.y);
        }
        pinch = d; dragged = true;
      }
    });
    const up = (evt) => { pointers.delete(evt.pointerId); if (pointers.size < 2) pinch = 0; };
    map.addEventListener("pointerup", up);
    map.addEventListener("pointercancel", up);
    map.addEventListener("keydown", (evt) => {
      if (!box) return;
      const stepX = box.w / 8; const stepY = box.h / 8;
      const keys = {
        ArrowLeft: () => pan(-stepX, 0), ArrowRight: () => pan(stepX, 0), ArrowUp: () => pan(0, -stepY),
        ArrowDown: () => pan(0, stepY), "+": () => zoom(1 / 1.25), "=": () => zoom(1 / 1.25), "-": () => zoom(1.25),
        "0": () => { box = { ...whole }; setBox(); },
      };
      const act = keys[evt.key];
      if (act && (evt.target.id === "map" || !evt.key.startsWith("Arrow"))) { act(); evt.preventDefault(); evt.stopPropagation(); }
    });
  }

  // --- unit cards ----------------------------------------------------------------------
  let pinned = null;
  function showCard(unit) {
    const cardBox = $("card-box");
    const card = $(unit.dataset.card);
    if (!card || !cardBox) return;
    cardBox.replaceChildren(card.cloneNode(true));
    cardBox.firstChild.hidden = false;
    cardBox.firstChild.removeAttribute("id");
    cardBox.hidden = false;
    place(cardBox, unit);
    const may = cardBox.querySelector("[data-may]");
    if (may) loadMay(card, may, unit);
  }
  // What a unit may still do is worked out when its card is first opened, then kept on the card.
  async function loadMay(card, shown, unit) {
    const url = `${frameUrl.replace(/frame\.json$/, "may")}?unit=${encodeURIComponent(shown.dataset.may)}`;
    const answer = await fetch(url, { cache: "no-store", credentials: "omit" });
    if (!answer.ok) return;
    const data = await answer.json();
    for (const box of [card.querySelector("[data-may]"), shown]) {
      if (!box) continue;
      const doc = new DOMParser().parseFromString(`<div>${data.may}</div>`, "text/html");
      box.replaceChildren(...doc.body.firstChild.childNodes);
      box.removeAttribute("data-may");
    }
    const cardBox = $("card-box");
    if (cardBox && !cardBox.hidden) place(cardBox, unit);
  }
  // Beside the unit, inside the map's section: right of it if there is room, else left.
  function place(cardBox, unit) {
    const section = $("board-section").getBoundingClientRect();
    const at = unit.getBoundingClientRect();
    const w = cardBox.offsetWidth; const h = cardBox.offsetHeight;
    let x = at.right - section.left + 8;
    if (x + w > section.width) x = at.left - section.left - w - 8;
    if (x < 0) x = Math.max(0, section.width - w);
    let y = at.top - section.top - 8;
    if (y + h > section.height) y = section.height - h;
    cardBox.style.left = `${Math.max(0, x)}px`;
    cardBox.style.top = `${Math.max(0, y)}px`;
  }
  function hideCard() { const cardBox = $("card-box"); if (cardBox && !pinned) cardBox.hidden = true; }
  function unitOf(evt) { return evt.target.closest ? evt.target.closest("g.unit") : null; }
  function wireCards(root) {
    root.addEventListener("pointerover", (evt) => { const u = unitOf(evt); if (u) showCard(u); });
    root.addEventListener("pointerout", (evt) => { const u = unitOf(evt); if (u && !pinned) hideCard(); });
    root.addEventListener("focusin", (evt) => { const u = unitOf(evt); if (u) showCard(u); });
    root.addEventListener("focusout", (evt) => { const u = unitOf(evt); if (u && pinned !== u) hideCard(); });
    root.addEventListener("click", (evt) => {
      const link = evt.target.closest ? evt.target.closest("a.unit-link") : null;
      if (link) {
        const target = $(link.dataset.unit);
        if (target) { evt.preventDefault(); centreOn(target); target.focus(); }
        return;
      }
      const u = unitOf(evt);
      if (u && !dragged) { pinned = pinned === u ? null : u; if (pinned) showCard(u); else hideCard(); }
    });
    root.addEventListener("keydown", (evt) => {
      const u = unitOf(evt);
      if (u && (evt.key === "Enter" || evt.key === " ")) { pinned = pinned === u ? null : u; showCard(u); evt.preventDefault(); }
      if (evt.key === "Escape") { pinned = null; const c = $("card-box"); if (c) c.hidden = true; }
    });
  }
  function centreOn(unit) {
    if (!box) return;
    box.x = Number(unit.dataset.cx) - box.w / 2; box.y = Number(unit.dataset.cy) - box.h / 2;
    clamp(); setBox();
  }

  // --- frames: live and replay -----------------------------------------------------------
  function swap(id, html) {
    const el = $(id);
    if (!el) return;
    const doc = new DOMParser().parseFromString(`<div>${html}</div>`, "text/html");
    el.replaceChildren(...doc.body.firstChild.childNodes);
  }
  // A step changes little of a big map: the new board and cards are laid over the old ones node by node and
  // only what differs is replaced, so the browser draws again the units that moved, not all of them.
  function overlay(target, source, depth) {
    const old = Array.from(target.childNodes), next = Array.from(source.childNodes);
    if (depth <= 0 || old.length !== next.length) { target.replaceChildren(...next); return; }
    for (let i = 0; i < old.length; i++) {
      const a = old[i], b = next[i];
      if (a.isEqualNode(b)) continue;
      if (a.nodeType === 1 && b.nodeType === 1 && a.tagName === b.tagName && a.id === b.id) {
        for (const attr of Array.from(a.attributes)) if (!b.hasAttribute(attr.name)) a.removeAttribute(attr.name);
        for (const attr of Array.from(b.attributes)) {
          if (a.getAttribute(attr.name) !== attr.value) a.setAttribute(attr.name, attr.value);
        }
        overlay(a, b, depth - 1);
      } else {
        a.replaceWith(b);
      }
    }
  }
  function patch(id, html) {
    const el = $(id);
    if (!el) return;
    const doc = new DOMParser().parseFromString(`<div>${html}</div>`, "text/html");
    overlay(el, doc.body.firstChild, 4);
  }
  function label() {
    const text = live ? `Order ${step} of ${steps} (now)` : `Order ${step} of ${steps}`;
    $("step-label").textContent = text;
    $("live-state").textContent = live ? "live" : "replaying (new orders still arrive)";
    $("slider").max = String(steps);
    $("slider").value = String(step);
    $("prev").disabled = step <= 0; $("first").disabled = step <= 0;
    $("next").disabled = live; $("now").disabled = live;
  }
  // A replay step's log is the log the page holds, cut at the step's order: shown by hiding the later entries,
  // so a step need not carry the whole log again. False when the page lacks that order (it came meanwhile).
  function cutLog(seq) {
    if (seq !== null && !$(`e${seq}`)) return false;
    for (const li of $("log").querySelectorAll("li[data-seq]")) {
      const n = Number(li.dataset.seq);
      li.hidden = seq !== null && n > seq;
      li.classList.toggle("current", n === seq);
      if (n === seq) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
    }
    return true;
  }
  async function show(wanted, whole) {
    const ticket = ++loading;
    const atNow = wanted === null || wanted >= steps;
    const cut = !atNow && !whole && $("log").querySelector("li[data-seq]") !== null;
    const url = atNow ? frameUrl : `${frameUrl}?step=${wanted}${cut ? "&log=0" : ""}`;
    const answer = await fetch(url, { cache: "no-store", credentials: "omit" });
    if (!answer.ok || ticket !== loading) return;
    const frame = await answer.json();
    if (frame.log === undefined && !cutLog(frame.seq)) { show(wanted, true); return; }
    steps = frame.steps; step = frame.step; live = frame.live;
    pinned = null;
    swap("status", frame.status); patch("board", frame.board); patch("cards", frame.cards);
    if (frame.log !== undefined) swap("log", frame.log);
    textShownAt = -1;
    if ($("textmap-box").open) loadText();
    const cardBox = $("card-box"); if (cardBox) cardBox.hidden = true;
    readWhole();
    localTimes(document);
    label();
  }

  // The map as text is long on a big battle: it is read when its section is opened, for the step shown.
  let textShownAt = -1;
  async function loadText() {
    const box = $("textmap-box");
    if (!box || textShownAt === step) return;
    const wanted = step;
    const url = live ? box.dataset.text : `${box.dataset.text}?step=${wanted}`;
    const answer = await fetch(url, { cache: "no-store", credentials: "omit" });
    if (!answer.ok) return;
    const data = await answer.json();
    if (wanted !== step) return;
    swap("textmap", data.textmap);
    textShownAt = wanted;
  }

  function go(wanted) { show(Math.max(0, Math.min(wanted, steps))); }
  function controls() {
    const textBox = $("textmap-box");
    if (textBox) textBox.addEventListener("toggle", () => { if (textBox.open) loadText(); });
    $("first").addEventListener("click", () => go(0));
    $("prev").addEventListener("click", () => go(step - 1));
    $("next").addEventListener("click", () => go(step + 1));
    $("now").addEventListener("click", () => show(null));
    const since = $("since");
    if (since) since.addEventListener("click", () => go(Number(since.dataset.step)));
    let timer = 0;
    $("slider").addEventListener("input", (evt) => {
      clearTimeout(timer);
      const wanted = Number(evt.target.value);
      timer = setTimeout(() => go(wanted), 120);
    });
    document.addEventListener("keydown", (evt) => {
      const t = evt.target;
      if (evt.altKey || evt.ctrlKey || evt.metaKey) return;
      if (t.closest && (t.closest("#map") || t.tagName === "INPUT" || t.tagName === "TEXTAREA")) return;
      if (evt.key === "ArrowLeft") { go(step - 1); evt.preventDefault(); }
      if (evt.key === "ArrowRight") { go(step + 1); evt.preventDefault(); }
    });
  }

  function listen() {
    if (!eventsUrl || !window.EventSource) return;
    const source = new EventSource(eventsUrl);
    source.addEventListener("change", () => {
      if (live) show(null);
      else fetch(frameUrl, { cache: "no-store", credentials: "omit" }).then((a) => a.ok ? a.json() : null).then((f) => {
        if (f) { steps = f.steps; label(); }
      });
    });
  }

  localTimes(document);
  readWhole();
  wire($("board"));
  wireCards($("board"));
  controls();
  label();
  listen();
})();
