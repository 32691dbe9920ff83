// asl-kb serve: the page edits the position's YAML tree (strings, lists and
// mappings, as the loader reads them); every change is sent to /api/answer,
// which checks it with the loader and answers it with the engine. The map and
// the fates are the report's page (asl-kb report), shown in the iframe and
// swapped in place at each answer. Nothing here decides a rules question.
(function () {
  "use strict";

  // the counters the Unit tool offers: each side's own first (its common
  // squad, half-squad and crew), then every other; a label only -- the
  // loader reads the values
  var COUNTERS = {
    squad: ["4-4-7", "4-6-7", "4-6-8", "5-4-8", "4-5-8", "6-2-8", "5-2-7", "7-4-7", "6-6-7", "6-6-6", "6-4-8", "4-5-7"],
    half_squad: ["2-4-7", "2-4-8", "2-3-7", "2-3-8", "3-4-7", "1-2-7", "3-3-7", "2-4-6"],
    crew: ["2-2-8", "2-2-7"],
    leader: ["8-0", "8-1", "9-1", "9-2", "10-2", "7-0", "6+1"],
    hero: ["1-4-9", "2-4-9"],
    vehicle: [], gun: [], unarmed: []
  };
  var SIDE_COUNTERS = {
    german: {squad: ["4-6-7", "4-6-8", "5-4-8", "4-4-7"], half_squad: ["2-4-7", "2-4-8", "2-3-8"], crew: ["2-2-8"]},
    ss: {squad: ["6-5-8", "5-4-8", "4-6-8"], half_squad: ["3-4-8", "2-4-8"], crew: ["2-2-8"]},
    russian: {squad: ["4-4-7", "6-2-8", "5-2-7", "4-2-6"], half_squad: ["2-4-7", "3-2-8", "2-2-7"], crew: ["2-2-7"]},
    american: {squad: ["6-6-6", "7-4-7", "6-6-7"], half_squad: ["3-3-6", "3-4-7", "3-3-7"], crew: ["2-2-7"]},
    british: {squad: ["4-5-7", "4-5-8", "6-4-8"], half_squad: ["2-4-7", "2-4-8", "3-4-8"], crew: ["2-2-8"]},
    japanese: {squad: ["4-4-7", "4-4-8"], half_squad: ["2-2-8", "2-2-7"], crew: ["2-2-8"]},
    italian: {squad: ["3-4-7", "4-3-6"], half_squad: ["2-3-7", "2-3-6"], crew: ["2-2-7"]},
    french: {squad: ["4-5-7", "4-4-7"], half_squad: ["2-3-7", "2-4-7"], crew: ["2-2-7"]},
    finnish: {squad: ["6-4-8", "5-4-8"], half_squad: ["3-3-8", "2-4-8"], crew: ["2-2-8"]}
  };
  // the right-click menu of a counter: [act, label, status toggled]
  var MENU = [["flip", "Flip", null], ["broken", "Break", "broken"], ["dm", "DM", "dm"], ["cx", "CX", "cx"], ["pinned", "Pin", "pinned"],
              ["concealed", "Conceal", "concealed"], ["delete", "Delete", null]];
  var TOOLS = [["select", "Select / move"], ["unit", "Unit"], ["terrain", "Terrain"], ["feature", "Feature"],
               ["smoke", "SMOKE"], ["elevation", "Hill level"], ["levels", "Building levels"],
               ["hexside", "Hexside"], ["los", "LOS"], ["area", "Area"], ["why-not", "Why not?"]];
  var UNIT_FIELDS = ["id", "side", "type", "counter", "at", "nationality", "class", "guard", "passenger_of", "rider_of"];
  // fields naming another unit, with what "none" means
  var UNIT_REFS = {guard: "— (not a prisoner)", passenger_of: "— (not a Passenger)", rider_of: "— (not a Rider)"};

  var S = {
    meta: null, tree: null, original: null, filename: "position.yaml", tool: "select",
    selected: null, seq: 0, tab: Math.random().toString(36).slice(2), inflight: null, timer: null,
    losFirst: null, areaFirst: null, sideFirst: null, error: null, answers: 0, drag: null,
    terrain: "woods", feature: "foxhole", hexside: "wall",
    // Why not?: the latest question (an older answer is not shown) and its request
    whySeq: 0, whyCtl: null,
    // undo/redo: the tree as JSON before each change, and after the last one;
    // `clean`: the tree as opened or saved (leaving it asks first)
    history: [], future: [], last: null, clean: null,
    // the answer in progress: when it began, its ticking status
    started: 0, tick: null,
    // the map's zoom (null: the report's own width) and a fit to the units due at the next answer
    zoom: null, fitDue: false,
    // the destinations whose every route is drawn ("show its N other
    // routes"): "UNIT\tLOCATION" -> true; the answer's map.board notice
    expanded: {}, boardLabel: null
  };
  var OFFLINE = "the server does not answer (stopped?): start asl-kb serve again; nothing here is lost";

  function $(sel) { return document.querySelector(sel); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "dataset") Object.assign(e.dataset, attrs[k]);
      else if (k in e && k !== "list") e[k] = attrs[k];
      else e.setAttribute(k, attrs[k]);
    });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function options(select, values, current, blank) {
    select.textContent = "";
    if (blank !== undefined) select.appendChild(el("option", {value: ""}, blank));
    values.forEach(function (v) { select.appendChild(el("option", {value: v}, v)); });
    if (current !== undefined && current !== null && values.indexOf(current) < 0 && current !== "")
      select.appendChild(el("option", {value: current}, current));
    select.value = current === undefined || current === null ? "" : current;
  }
  function setState(state, text) {
    document.body.dataset.state = state;
    $("#status").textContent = text;
  }

  // ---- the tree
  function sec(key) {
    if (!S.tree[key] || typeof S.tree[key] !== "object" || Array.isArray(S.tree[key])) S.tree[key] = {};
    return S.tree[key];
  }
  function mapSec() { return sec("map"); }
  function prune(obj, key) {
    var v = obj[key];
    if (v === undefined) return;
    if ((Array.isArray(v) && !v.length) || (v && typeof v === "object" && !Array.isArray(v) && !Object.keys(v).length))
      delete obj[key];
  }
  function pruneMap() {
    var m = S.tree.map;
    if (!m) return;
    ["terrain", "levels", "smoke", "area", "hexsides"].forEach(function (k) { prune(m, k); });
    prune(S.tree, "map");
    if (S.tree.los) { ["blocked", "clear", "hindrance"].forEach(function (k) { prune(S.tree.los, k); }); prune(S.tree, "los"); }
  }
  function units() {
    if (!Array.isArray(S.tree.units)) S.tree.units = [];
    return S.tree.units;
  }
  function defaultTerrain() { return (S.tree.map && S.tree.map.default_terrain) || "open"; }
  function hexEntry(h) {
    var t = S.tree.map && S.tree.map.terrain && S.tree.map.terrain[h];
    var e = {terrain: defaultTerrain(), features: [], elevation: "0", building: null};
    if (typeof t === "string") e.terrain = t;
    else if (Array.isArray(t)) { e.terrain = t[0] || e.terrain; e.features = t.slice(1); }
    else if (t && typeof t === "object") {
      e.terrain = t.terrain || e.terrain; e.features = (t.features || []).slice();
      e.elevation = t.elevation || "0"; e.building = t.building || null;
    }
    return e;
  }
  function setHexEntry(h, e) {
    var m = mapSec();
    if (!m.terrain || typeof m.terrain !== "object" || Array.isArray(m.terrain)) m.terrain = {};
    var plain = e.elevation === "0" && !e.building;
    if (plain && !e.features.length && e.terrain === defaultTerrain()) delete m.terrain[h];
    else if (plain && !e.features.length) m.terrain[h] = e.terrain;
    else if (plain) m.terrain[h] = [e.terrain].concat(e.features);
    else {
      var o = {terrain: e.terrain};
      if (e.features.length) o.features = e.features;
      if (e.elevation !== "0") o.elevation = e.elevation;
      if (e.building) o.building = e.building;
      m.terrain[h] = o;
    }
    var levels = m.levels;
    if (levels && levels[h] && ["building", "stone_building", "wooden_building"].indexOf(e.terrain) < 0) delete levels[h];
    pruneMap();
  }
  function unitIndex(id) {
    var us = units();
    for (var i = 0; i < us.length; i++) if (us[i] && us[i].id === id) return i;
    return -1;
  }
  function newId(side, h) {
    var base = (side || "u").charAt(0).toUpperCase() + h, id = base, n = 2;
    while (unitIndex(id) >= 0) id = base + "-" + n++;
    return id;
  }
  function setField(obj, key, value) {
    if (value === "" || value === null || value === undefined || (Array.isArray(value) && !value.length)) delete obj[key];
    else obj[key] = value;
  }
  function hexOf(at) { return String(at || "").split("@")[0]; }
  // map.hexsides' key naming the hexside between a and b (either order, as the loader reads it)
  function hexsideKey(a, b) {
    var hs = S.tree.map && S.tree.map.hexsides;
    if (!hs || typeof hs !== "object" || Array.isArray(hs)) return null;
    var keys = Object.keys(hs);
    for (var i = 0; i < keys.length; i++) {
      var ends = keys[i].split("-").map(function (x) { return x.trim(); });
      if (ends.length === 2 && ((ends[0] === a && ends[1] === b) || (ends[0] === b && ends[1] === a))) return keys[i];
    }
    return null;
  }
  // ADJACENT on the drawn map: the two hexes' outlines share an edge (two
  // corners); the loader checks it again
  function corners(doc, h) {
    var p = doc.querySelector('polygon.hex[data-hex="' + CSS.escape(h) + '"]');
    return p ? p.getAttribute("points").trim().split(/\s+/).map(function (xy) { return xy.split(",").map(Number); }) : [];
  }
  function adjacentOnMap(a, b) {
    var doc = frameDoc(), pb = corners(doc, b), shared = 0;
    corners(doc, a).forEach(function (p) {
      if (pb.some(function (q) { return Math.abs(p[0] - q[0]) < 0.5 && Math.abs(p[1] - q[1]) < 0.5; })) shared++;
    });
    return shared === 2;
  }

  // ---- changes
  function changed() {
    pruneMap();
    var now = JSON.stringify(S.tree);
    if (now !== S.last) { S.history.push(S.last); S.future = []; S.last = now; }
    render();
    schedule();
  }
  function schedule() {
    clearTimeout(S.timer);
    S.seq++;      // an answer still on its way is to an older edit: not shown
    S.timer = setTimeout(answer, 120);
    setState("pending", "answering…");
    hideWhy();    // a Why not? answer was about the position before this edit
  }
  // undo/redo: the tree as it was, answered again (unchanged from the file
  // opened, it is the file's own text, byte for byte)
  function undo(back) {
    var from = back ? S.history : S.future, to = back ? S.future : S.history;
    if (!from.length) return;
    to.push(S.last);
    S.last = from.pop();
    S.tree = JSON.parse(S.last);
    if (S.selected !== null && !units()[S.selected]) S.selected = null;
    render();
    schedule();
  }
  function dirty() { return S.tree !== null && JSON.stringify(S.tree) !== S.clean; }
  function post(path, body, signal) {
    return fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                        body: JSON.stringify(body), signal: signal});
  }
  // a request's answer: {r, data}; {offline: true} when the server does not
  // answer; AbortError passes through
  async function ask(path, body, signal) {
    var r;
    try { r = await post(path, body, signal); }
    catch (e) { if (e.name === "AbortError") throw e; return {offline: true}; }
    var data;
    try { data = await r.json(); }
    catch (e) { data = {error: {message: "HTTP " + r.status + ": not an answer of asl-kb serve"}}; }
    return {r: r, data: data};
  }
  // the map shows the last answer, not the position as it now is
  function markStale(stale) {
    document.body.dataset.stale = stale ? "true" : "false";
    var b = $("#stale");
    b.hidden = !stale;
    if (stale) b.textContent = "the map and the fates show the last answer" +
      (S.shownName ? " (" + S.shownName + ")" : "") + ", not the position as it now is";
  }
  function body(extra) {
    return Object.assign({tree: S.tree, original: S.original, filename: S.filename}, extra || {});
  }
  // the answer on its way: its time, the cap and how far it has gone (the
  // broken units whose fates are read, asked of the server each second)
  function progress(on, seq) {
    clearInterval(S.tick);
    $("#cancel").hidden = !on;
    document.body.dataset.elapsed = "0";
    delete document.body.dataset.done;
    delete document.body.dataset.of;
    if (!on) return;
    S.started = Date.now();
    var cap = S.meta.limits.timeout, gone = "";
    function show() {
      var s = Math.floor((Date.now() - S.started) / 1000);
      $("#status").textContent = "answering… " + gone + s + " s (an answer stops at " + cap + " s: Cancel ends it sooner)";
      document.body.dataset.elapsed = String(s);
    }
    async function ask_() {
      var p;
      try { p = await (await fetch("/api/progress?tab=" + encodeURIComponent(S.tab))).json(); } catch (e) { return; }
      if (S.inflight === null || seq !== S.seq || p.seq !== seq || !p.of) return;
      gone = p.done.toLocaleString("en") + " of " + p.of.toLocaleString("en") + " units" + (p.drawing ? ", drawing the map" : "") + " · ";
      document.body.dataset.done = String(p.done);
      document.body.dataset.of = String(p.of);
      show();
    }
    show();
    S.tick = setInterval(function () { show(); ask_(); }, 1000);
  }
  function answered(state, text) {
    progress(false);
    setState(state, S.notice ? text + " · " + S.notice : text);
    S.answers++;
    document.body.dataset.answers = S.answers;
  }
  function cancel() {
    clearTimeout(S.timer);
    S.seq++;
    if (S.inflight) { S.inflight.abort(); S.inflight = null; }  // the server ends its processes
    markStale(true);
    answered("cancelled", "answer cancelled: the map shows the last answer; edit or press Answer to ask again");
  }
  async function answer() {
    var seq = ++S.seq;
    if (S.inflight) S.inflight.abort();
    var ctl = new AbortController();
    S.inflight = ctl;
    setState("answering", "answering…");
    progress(true, seq);
    var got;
    try {
      got = await ask("/api/answer", body({phase: $("#phase-toggle").checked, all: expandedList(), tab: S.tab, seq: seq}), ctl.signal);
    } catch (e) {
      return;  // aborted: a newer edit, or Cancel
    }
    if (seq !== S.seq) return;
    S.inflight = null;
    if (got.offline) {
      showError({message: OFFLINE});
      markStale(true);
      answered("error", "no answer: the server does not answer");
      return;
    }
    var r = got.r, data = got.data;
    if (!r.ok) {
      if (r.status === 409) return;
      showError(data.error || {message: "HTTP " + r.status});
      markStale(true);
      answered("error", r.status === 400 ? "not answered: the position has an error" : "not answered");
      return;
    }
    showError(null);
    S.text = data.text;
    S.result = data.result;
    $("#yaml").textContent = data.text;
    S.shownName = S.tree.name || S.filename;
    showReport(data.html);
    showBoardLabel(data.board_label || null);
    markStale(false);
    var r0 = data.result;
    answered("answered", r0.complete ? "every legal outcome listed" :
             "INCOMPLETE: " + (r0.incomplete_because || []).join("; "));
  }

  // ---- a destination's other routes: the answer draws each destination's
  // best route and counts the others (as `report` does); "show its N other
  // routes" asks for every route of that destination (the request's `all`)
  function expandedList() {
    return Object.keys(S.expanded).map(function (k) { var p = k.split("\t"); return {unit: p[0], at: p[1]}; });
  }
  // a destination's list in the report's page: "UNIT\tLOCATION"
  function destKey(d) {
    var s = d.querySelector("summary");
    return d.closest("section.unit").dataset.unit + "\t" + ((s && s.dataset.at) || "");
  }
  function expandRoutes(unit, at, on) {
    var k = unit + "\t" + at;
    if (on) S.expanded[k] = true; else delete S.expanded[k];
    schedule();  // (the position is as it was: no edit to undo)
  }
  // each destination with routes not drawn gets its control; one expanded,
  // the control that folds it back
  function routeControls(doc) {
    doc.querySelectorAll("section.unit[data-unit] details.dest").forEach(function (d) {
      var k = destKey(d), unit = k.split("\t")[0], at = k.split("\t")[1], ol = d.querySelector("ol.fates");
      var more = d.querySelector("li.more");
      if (more) {
        var n = parseInt(more.textContent.replace(/^\D*/, ""), 10) || 0;  // ("and N other routes")
        more.textContent = "";
        more.appendChild(el("button", {type: "button", className: "routes", dataset: {expand: "true", unit: unit, at: at}},
                            "show its " + n + " other route" + (n === 1 ? "" : "s")));
      } else if (S.expanded[k] && ol) {
        var li = doc.createElement("li");
        li.className = "more";
        li.appendChild(el("button", {type: "button", className: "routes", dataset: {expand: "false", unit: unit, at: at}},
                          "show only its best route"));
        ol.appendChild(li);
      }
    });
  }
  // ---- map.board on a painted map is the hexes' prefix only (5M2): the
  // terrain is the map's own. Said beside the field; where the VASL boards
  // folder holds that board, a button puts the map on it (map.boards)
  function showBoardLabel(label) {
    S.boardLabel = label;
    var box = $("#board-note");
    box.textContent = "";
    box.hidden = !label;
    if (!label) { delete box.dataset.board; delete box.dataset.vasl; return; }
    box.dataset.board = label.board;
    box.dataset.vasl = String(label.vasl_board);
    box.title = "map.board names the hexes' prefix only (" + label.board + "M2 is M2): the terrain is this painted map's own" +
      (label.vasl_board ? "; VASL board " + label.board + " is in your boards folder" :
       ", not a VASL board's (no board " + label.board + " in your VASL boards folder)");
    box.appendChild(document.createTextNode("a label only: the terrain is this map's" +
      (label.vasl_board ? ", not VASL board " + label.board + "'s " : "")));
    if (label.vasl_board)
      box.appendChild(el("button", {type: "button", id: "use-vasl-board"}, "use VASL board " + label.board));
  }
  // the map put on the VASL board map.board named: its terrain, levels and
  // hexsides are the board's (the painted ones dropped; Undo gives them back)
  function useVaslBoard() {
    var m = mapSec(), b = S.boardLabel && S.boardLabel.board;
    if (!b) return;
    ["board", "area", "default_terrain", "levels", "terrain", "hexsides"].forEach(function (k) { delete m[k]; });
    m.boards = [b];
    changed();
  }

  // ---- errors: the loader's message, on the element its key names
  function showError(err) {
    S.error = err;
    var box = $("#error");
    document.querySelectorAll(".err").forEach(function (x) { x.classList.remove("err"); });
    document.querySelectorAll(".errmsg").forEach(function (x) { x.remove(); });
    if (!err) { box.hidden = true; box.textContent = ""; markMap(); return; }
    box.hidden = false;
    box.textContent = err.message;
    var key = err.key || "";
    var best = null;
    document.querySelectorAll("[data-key]").forEach(function (x) {
      var k = x.dataset.key;
      if ((key === k || key.indexOf(k + ".") === 0 || key.indexOf(k + "[") === 0) && (!best || k.length > best.dataset.key.length)) best = x;
    });
    if (best) {
      best.classList.add("err");
      best.title = err.message;
      var msg = el("span", {className: "errmsg"}, err.message);
      (best.closest("label, li, span, div") || best).appendChild(msg);
    }
    markMap();
  }
  function errorUnit() {
    var m = /^units\[(\d+)\]/.exec((S.error && S.error.key) || "");
    var u = m && units()[+m[1]];
    return u && u.id;
  }
  function errorHexes() {
    var key = (S.error && S.error.key) || "";
    var m = /^map\.(?:terrain|levels)\.([A-Za-z0-9]+)/.exec(key);
    if (m) return [m[1]];
    m = /^map\.hexsides\.\s*([A-Za-z0-9]+)\s*-\s*([A-Za-z0-9]+)/.exec(key);
    return m ? [m[1], m[2]] : [];
  }

  // ---- the report in the iframe
  function frameDoc() {
    var f = $("#report");
    return f.contentDocument;
  }
  // the report's page as the editor shows it: one screen, the map in one
  // scroll area beside the fates (the sections below them moved into their
  // panel), counters readable, every fate's reasons shown
  var INJECTED = ".counter.sel .face { stroke: #0b5ed7; stroke-width: 3.5; }" +
    ".counter.err .face, polygon.hex.err { stroke: #c0392b; stroke-width: 4; stroke-dasharray: 4 2; }" +
    "polygon.hex.pick { stroke: #0b5ed7; stroke-width: 3; } polygon.hex:hover { stroke: #0b5ed7; stroke-width: 2; }" +
    "polygon.hex.outside { fill-opacity: .35; }" +
    "html, body { height: 100%; } body { display: flex; flex-direction: column; overflow: hidden; padding: 4px 8px; }" +
    "body > header { flex: none; } body > header h1 { font-size: 15px; margin: 0; } body > header p { margin: 0; font-size: 12px; }" +
    "body > header p.note { display: none; }" +
    ".board { flex: 1; min-height: 0; align-items: stretch; grid-template-rows: minmax(0, 1fr); grid-template-columns: minmax(0, 1fr) minmax(260px, 360px); gap: 6px; }" +
    ".board > div:first-child { display: flex; flex-direction: column; min-height: 0; overflow: hidden; }" +
    ".controls { flex: none; margin: 2px 0; font-size: 12px; } #map { flex: 1; min-height: 0; max-height: none; }" +
    ".legend { flex: none; margin: 2px 0; font-size: 11px; } #panel { max-height: none; height: 100%; font-size: 13px; }" +
    "li.fate .why { display: block; } li.fate .why ul.because { font-size: 11.5px; color: #3d3d37; }" +
    ".counter .uid { font-size: 8px; font-weight: bold; } .counter .type { font-size: 7px; }" +
    "g#dest polygon { pointer-events: none; stroke-width: 3; fill-opacity: .35; }" +
    "g#dest .d-rout { fill: #27ae60; stroke: #1e8449; } g#dest .d-stay { fill: #2e86c1; stroke: #1b4f72; }" +
    "g#dest .d-surrender { fill: #1f4e9a; stroke: #1f4e9a; } g#dest .d-eliminated { fill: #000; stroke: #000; }" +
    "g#dest text { font-size: 10px; font-weight: bold; text-anchor: middle; paint-order: stroke; stroke: #fff; stroke-width: 3px; fill: #0b3d1e; pointer-events: none; }" +
    "g#dest text.odds { fill: #7b2d00; }" +
    "li.more button.routes { font: inherit; font-size: 12px; padding: 1px 6px; border: 1px solid #999; border-radius: 3px; background: #f3f1ea; cursor: pointer; }";
  function showReport(html) {
    var f = $("#report"), doc = frameDoc();
    if (!doc || !doc.getElementById("board")) {
      f.onload = function () { wireFrame(); arrange(frameDoc()); markMap(); };
      f.srcdoc = html;
      return;
    }
    var scroll = ["map", "panel"].map(function (id) {
      var x = doc.getElementById(id);
      return x ? [x.scrollLeft, x.scrollTop] : [0, 0];
    });
    var top = doc.scrollingElement ? doc.scrollingElement.scrollTop : 0;
    var folded = {};  // each destination's list as the player left it, open or folded
    doc.querySelectorAll("section.unit[data-unit] details.dest").forEach(function (d) { folded[destKey(d)] = d.open; });
    var fresh = new DOMParser().parseFromString(html, "text/html");
    fresh.querySelectorAll("script").forEach(function (s) { s.remove(); });
    doc.body.replaceWith(doc.importNode(fresh.body, true));
    doc.title = fresh.title;
    doc.querySelectorAll("section.unit[data-unit] details.dest").forEach(function (d) {
      var k = destKey(d);
      if (k in folded) d.open = folded[k];
    });
    var fitted = arrange(doc);
    ["map", "panel"].forEach(function (id, i) {
      var x = doc.getElementById(id);
      if (x && !(fitted && id === "map")) { x.scrollLeft = scroll[i][0]; x.scrollTop = scroll[i][1]; }
    });
    if (doc.scrollingElement) doc.scrollingElement.scrollTop = top;
    wireLosToggle(doc);
    markMap();
  }
  // the report's page laid out for the editor (INJECTED): the sections below
  // the map go to the end of the fates' panel; the zoom kept, or the map
  // fitted to the units when a position was opened
  function arrange(doc) {
    routeControls(doc);
    var panel = doc.getElementById("panel");
    if (panel) ["phase", "prisoners", "rules"].forEach(function (id) {
      var x = doc.getElementById(id);
      if (x && x.parentNode !== panel) panel.appendChild(x);
    });
    colourByNationality(doc);
    if (S.fitDue) { S.fitDue = false; fit(); return true; }
    if (S.zoom !== null) zoomTo(S.zoom);
    return false;
  }
  function colourByNationality(doc) {
    var colours = S.meta.colours || {};
    units().forEach(function (u) {
      if (!u || !u.nationality || !colours[u.nationality]) return;
      doc.querySelectorAll('g.counter[data-unit="' + CSS.escape(u.id) + '"] rect.face').forEach(function (x) {
        x.setAttribute("fill", colours[u.nationality]);
      });
    });
  }

  // ---- zoom: the map's svg drawn at `z` times its natural size, #map scrolled
  function board() { var d = frameDoc(); return d && d.getElementById("board"); }
  function zoomTo(z, cx, cy) {
    var svg = board(), map = svg && frameDoc().getElementById("map");
    if (!svg || !map) return;
    S.zoom = z = Math.max(0.2, Math.min(6, z));
    var w = +svg.getAttribute("width"), h = +svg.getAttribute("height"), vb = svg.viewBox.baseVal;
    svg.style.minWidth = "0";
    svg.style.maxWidth = "none";
    svg.style.width = w * z + "px";
    svg.style.height = h * z + "px";
    if (cx !== undefined) {
      var k = (w * z) / vb.width;
      map.scrollLeft = (cx - vb.x) * k - map.clientWidth / 2;
      map.scrollTop = (cy - vb.y) * k - map.clientHeight / 2;
    }
    $("#zoom-level").textContent = Math.round(z * 100) + "%";
  }
  // the box (in the svg's own units) around the units, or around the whole map
  function unitsBox(svg) {
    var s = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal, k = s.width / vb.width, box = null;
    svg.querySelectorAll("g.counter").forEach(function (c) {
      var r = c.getBoundingClientRect();
      var b = [vb.x + (r.left - s.left) / k, vb.y + (r.top - s.top) / k, vb.x + (r.right - s.left) / k, vb.y + (r.bottom - s.top) / k];
      box = box ? [Math.min(box[0], b[0]), Math.min(box[1], b[1]), Math.max(box[2], b[2]), Math.max(box[3], b[3])] : b;
    });
    return box;
  }
  // every unit in view, as large as fits (never past 2.5 times): a hex's
  // width of margin around them; no unit: the whole map
  function fit() {
    var svg = board(), map = svg && frameDoc().getElementById("map");
    if (!svg || !map) return;
    var vb = svg.viewBox.baseVal, w = +svg.getAttribute("width"), box = unitsBox(svg);
    var pad = 40;
    if (!box) box = [vb.x + pad, vb.y + pad, vb.x + vb.width - pad, vb.y + vb.height - pad];
    var bw = box[2] - box[0] + 2 * pad, bh = box[3] - box[1] + 2 * pad, k1 = w / vb.width;
    var z = Math.min((map.clientWidth - 4) / (bw * k1), (map.clientHeight - 4) / (bh * k1), 2.5);
    zoomTo(z, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2);
  }
  function centre() {
    var svg = board(), box = svg && unitsBox(svg);
    if (box) zoomTo(S.zoom || 1, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2);
  }

  // ---- the selected unit's destinations on the map: every Location its
  // fates end in (as `outcomes` lists them), coloured by the fate; a rout
  // there with the fewest NMC of its routes there and, where dice decide,
  // the chance it arrives intact (the fate's own odds, as its list says them)
  function fatesOf(id) {
    var us = (S.result && S.result.units) || [];
    for (var i = 0; i < us.length; i++) if (us[i].id === id) return us[i].fates || [];
    return [];
  }
  // a chance's ways of `of` ("26/36") in whole percent, rounded as the
  // fates' list rounds it (Python's round: a half to even)
  function percent(chance) {
    var kn = String(chance).split("/"), x = 100 * Number(kn[0]) / Number(kn[1]), r = Math.round(x);
    if (r - x === 0.5 && r % 2) r -= 1;
    return r;
  }
  // the rout to show in a hex: the fewest NMC, then the likeliest intact
  function better(f, g) {
    var a = f.odds ? f.odds.nmcs : 0, b = g.odds ? g.odds.nmcs : 0;
    if (a !== b || !a) return a < b;
    var p = f.odds.intact.chance.split("/").map(Number), q = g.odds.intact.chance.split("/").map(Number);
    return p[0] * q[1] > q[0] * p[1];
  }
  function drawDestinations(doc) {
    var old = doc.getElementById("dest");
    if (old) old.remove();
    var sel = S.selected !== null && units()[S.selected], svg = doc.getElementById("board");
    if (!sel || !svg || S.error || document.body.dataset.stale === "true") return;
    var by = {};
    fatesOf(sel.id).forEach(function (f) {
      var h = hexOf(f.at);
      if (!h) return;
      var d = by[h] || (by[h] = {kinds: [], rout: null});
      if (d.kinds.indexOf(f.fate) < 0) d.kinds.push(f.fate);
      if (f.fate === "rout" && (!d.rout || better(f, d.rout))) d.rout = f;
    });
    var NS = svg.namespaceURI, g = doc.createElementNS(NS, "g"), labels = [];
    g.id = "dest";
    // (the words over every hex's colour: drawn after the last hex)
    function text(x, y, cls, words, h) {
      var t = doc.createElementNS(NS, "text");
      t.setAttribute("x", String(x));
      t.setAttribute("y", String(y));
      t.setAttribute("data-hex", h);
      if (cls) t.setAttribute("class", cls);
      t.textContent = words;
      labels.push(t);
    }
    Object.keys(by).forEach(function (h) {
      var hex = svg.querySelector('polygon.hex[data-hex="' + CSS.escape(h) + '"]');
      if (!hex) return;
      var d = by[h], kind = d.rout ? "rout" : d.kinds[0], odds = d.rout && d.rout.odds;
      var nmcs = d.rout ? (odds ? odds.nmcs : 0) : null;
      var p = doc.createElementNS(NS, "polygon");
      p.setAttribute("points", hex.getAttribute("points"));
      p.setAttribute("class", "dest d-" + kind);
      p.setAttribute("data-hex", h);
      p.setAttribute("data-kinds", d.kinds.join(" "));
      if (nmcs !== null) p.setAttribute("data-nmcs", String(nmcs));
      if (odds && odds.nmcs) p.setAttribute("data-intact", odds.intact.chance);
      g.appendChild(p);
      var bb = hex.getBBox(), x = bb.x + bb.width / 2, y = bb.y + bb.height - 6;
      if (odds && odds.nmcs) {
        text(x, y - 11, null, nmcs + " NMC", h);
        text(x, y, "odds", percent(odds.intact.chance) + "% intact", h);
      } else text(x, y, null, kind === "rout" ? nmcs + " NMC" : kind, h);
    });
    labels.forEach(function (t) { g.appendChild(t); });
    svg.insertBefore(g, doc.getElementById("units"));
  }
  function wireLosToggle(doc) {
    var t = doc.getElementById("los-toggle");
    if (t) t.addEventListener("change", function () { doc.getElementById("los").classList.toggle("shown", t.checked); });
  }
  function markMap() {
    var doc = frameDoc();
    if (!doc || !doc.getElementById("board")) return;
    doc.querySelectorAll(".sel, .err, .pick").forEach(function (x) { x.classList.remove("sel", "err", "pick"); });
    var sel = S.selected !== null && units()[S.selected];
    if (sel) doc.querySelectorAll('g.counter[data-unit="' + CSS.escape(sel.id) + '"]').forEach(function (x) { x.classList.add("sel"); });
    var eu = errorUnit();
    if (eu) doc.querySelectorAll('g.counter[data-unit="' + CSS.escape(eu) + '"]').forEach(function (x) { x.classList.add("err"); });
    errorHexes().forEach(function (eh) {
      doc.querySelectorAll('polygon.hex[data-hex="' + CSS.escape(eh) + '"]').forEach(function (x) { x.classList.add("err"); });
    });
    var pick = S.losFirst || S.areaFirst || S.sideFirst;
    if (pick) doc.querySelectorAll('polygon.hex[data-hex="' + CSS.escape(pick) + '"]').forEach(function (x) { x.classList.add("pick"); });
    drawDestinations(doc);
  }
  function hexAt(doc, x, y) {
    var hits = doc.elementsFromPoint(x, y);
    for (var i = 0; i < hits.length; i++)
      if (hits[i].matches && hits[i].matches("polygon.hex[data-hex]")) return hits[i].getAttribute("data-hex");
    return null;
  }
  function wireFrame() {
    var doc = frameDoc();
    var style = doc.createElement("style");
    style.textContent = INJECTED;
    doc.head.appendChild(style);
    wireLosToggle(doc);
    doc.addEventListener("pointerdown", function (ev) {
      if (!ev.target.closest || !ev.target.closest("#board")) return;
      var c = ev.target.closest("g.counter");
      S.drag = {unit: c ? c.getAttribute("data-unit") : null, x: ev.clientX, y: ev.clientY, moved: false};
      if (c) ev.preventDefault();
    });
    doc.addEventListener("pointermove", function (ev) {
      var d = S.drag;
      if (d && d.unit && Math.abs(ev.clientX - d.x) + Math.abs(ev.clientY - d.y) > 6) d.moved = true;
    });
    doc.addEventListener("contextmenu", function (ev) {
      var c = ev.target.closest && ev.target.closest("g.counter");
      if (!c) return;
      ev.preventDefault();
      S.drag = null;
      var r = $("#report").getBoundingClientRect();
      showMenu(c.getAttribute("data-unit"), r.left + ev.clientX, r.top + ev.clientY);
    });
    doc.addEventListener("click", function (ev) {
      var b = ev.target.closest && ev.target.closest("button.routes[data-expand]");
      if (b) expandRoutes(b.dataset.unit, b.dataset.at, b.dataset.expand === "true");
    });
    doc.addEventListener("keydown", keys);
    doc.addEventListener("dragover", dragOver);
    doc.addEventListener("drop", dropped);
    doc.addEventListener("pointermove", function (ev) {
      var hex = ev.target.closest && ev.target.closest("polygon.hex[data-hex]");
      hovered(hex ? hex.getAttribute("data-hex") : null);
    });
    doc.addEventListener("pointerdown", function () { hideMenu(); }, true);
    doc.addEventListener("pointerup", function (ev) {
      var d = S.drag;
      S.drag = null;
      if (!d || ev.button !== 0) return;
      var h = hexAt(doc, ev.clientX, ev.clientY);
      if (d.unit && d.moved) { if (h) moveUnit(d.unit, h); return; }
      if (d.unit && S.tool === "select") { selectUnit(unitIndex(d.unit)); return; }
      if (h) hexClick(h);
    });
  }

  // ---- the tools
  function hexClick(h) {
    var e, m;
    switch (S.tool) {
      case "select":
        selectUnit(null);
        return;
      case "unit":
        placeUnit(h, {side: $("#t-side").value || "german", type: $("#t-type").value || "squad", counter: $("#t-counter").value,
                      status: Array.prototype.map.call(document.querySelectorAll("#t-status input:checked"), function (x) { return x.value; })});
        // the next counter starts as printed: its statuses ticked again if wanted
        document.querySelectorAll("#t-status input:checked").forEach(function (x) { x.checked = false; });
        break;
      case "terrain":
        e = hexEntry(h); e.terrain = S.terrain; setHexEntry(h, e);
        break;
      case "feature":
        e = hexEntry(h);
        var i = e.features.indexOf(S.feature);
        if (i >= 0) e.features.splice(i, 1); else e.features.push(S.feature);
        setHexEntry(h, e);
        break;
      case "elevation":
        e = hexEntry(h); e.elevation = String(parseInt($("#elevation").value, 10) || 0); setHexEntry(h, e);
        break;
      case "levels":
        m = mapSec();
        if (!m.levels || typeof m.levels !== "object" || Array.isArray(m.levels)) m.levels = {};
        var n = parseInt($("#levels").value, 10) || 0;
        if (n > 0) m.levels[h] = String(n); else delete m.levels[h];
        break;
      case "smoke":
        m = mapSec();
        if (!Array.isArray(m.smoke)) m.smoke = [];
        var j = m.smoke.indexOf(h);
        if (j >= 0) m.smoke.splice(j, 1); else m.smoke.push(h);
        break;
      case "hexside":
        var hint = $("#hexside-hint");
        if (!S.sideFirst || S.sideFirst === h) { S.sideFirst = h; hint.textContent = "from " + h + ": click an ADJACENT hex"; markMap(); return; }
        if (!adjacentOnMap(S.sideFirst, h)) {
          hint.textContent = S.sideFirst + " and " + h + " are not ADJACENT; from " + h + ": click an ADJACENT hex";
          S.sideFirst = h; markMap(); return;
        }
        var hk = hexsideKey(S.sideFirst, h);
        if (S.hexside === "none") { if (hk) delete mapSec().hexsides[hk]; }
        else {
          m = mapSec();
          if (!m.hexsides || typeof m.hexsides !== "object" || Array.isArray(m.hexsides)) m.hexsides = {};
          m.hexsides[hk || S.sideFirst + "-" + h] = S.hexside;
        }
        S.sideFirst = null;
        hint.textContent = "click one hex, then an ADJACENT one";
        break;
      case "los":
        if (!S.losFirst) { S.losFirst = h; $("#los-hint").textContent = "from " + h + ": click the other hex"; markMap(); return; }
        if (S.losFirst === h) return;
        var kind = $("#los-kind").value, los = sec("los");
        if (!Array.isArray(los[kind])) los[kind] = [];
        los[kind].push(kind === "hindrance" ? [S.losFirst, h, String(parseInt($("#los-drm").value, 10) || 0)] : [S.losFirst, h]);
        S.losFirst = null;
        $("#los-hint").textContent = "click one hex, then the other";
        break;
      case "area":
        if (!S.areaFirst) { S.areaFirst = h; $("#area-hint").textContent = "from " + h + ": click the opposite corner"; markMap(); return; }
        mapSec().area = [S.areaFirst, h];
        S.areaFirst = null;
        $("#area-hint").textContent = "click one corner, then the opposite one";
        break;
      case "why-not":
        whyNot(h);
        return;
    }
    changed();
  }
  // a new unit of the template `t` (side, type, counter, statuses) in hex h:
  // its id the side's initial and the hex (RG2), numbered when taken
  function placeUnit(h, t) {
    var u = {id: newId(t.side, h), side: t.side, type: t.type};
    if (t.counter) u.counter = t.counter;
    u.at = h;
    if (t.status && t.status.length) u.status = t.status.slice();
    units().push(u);
    S.selected = units().length - 1;
  }
  // ---- the counter tray: the side's counters, dragged onto a hex (as
  // from VASL's counter palette) or clicked to pick one for the Unit tool
  function renderTray() {
    var side = $("#tray-side").value || "german", box = $("#tray-counters"), own = SIDE_COUNTERS[side] || {};
    var colour = (S.meta.colours || {})[side] || "#ddd";
    box.textContent = "";
    [["squad", "squad"], ["half_squad", "HS"], ["crew", "crew"], ["leader", "leader"]].forEach(function (tk) {
      var list = (own[tk[0]] || []).concat(tk[0] === "leader" ? COUNTERS.leader.slice(0, 4) : (own[tk[0]] ? [] : (COUNTERS[tk[0]] || []).slice(0, 1)));
      list.forEach(function (c) {
        var chip = el("div", {className: "chip", title: side + " " + tk[0].replace("_", "-") + " " + c,
                              dataset: {side: side, type: tk[0], counter: c}});
        chip.style.background = colour;
        chip.appendChild(el("small", {}, tk[1]));
        chip.appendChild(document.createTextNode(c));
        box.appendChild(chip);
      });
    });
  }
  // where a point of the page falls on the map: the hex drawn there, or null
  function hexAtPage(x, y) {
    var f = $("#report"), r = f.getBoundingClientRect(), doc = frameDoc();
    if (!doc || x < r.left || y < r.top || x > r.right || y > r.bottom) return null;
    return hexAt(doc, x - r.left - f.clientLeft, y - r.top - f.clientTop);
  }
  function wireTray() {
    var box = $("#tray-counters"), ghost = $("#tray-ghost"), drag = null;
    box.addEventListener("pointerdown", function (ev) {
      var chip = ev.target.closest(".chip");
      if (!chip || ev.button !== 0) return;
      ev.preventDefault();
      chip.setPointerCapture(ev.pointerId);  // (the events stay the tray's over the map's frame)
      drag = {chip: chip, x: ev.clientX, y: ev.clientY, moved: false};
    });
    box.addEventListener("pointermove", function (ev) {
      if (!drag) return;
      if (!drag.moved && Math.abs(ev.clientX - drag.x) + Math.abs(ev.clientY - drag.y) > 6) {
        drag.moved = true;
        ghost.textContent = "";
        ghost.appendChild(drag.chip.cloneNode(true));
        ghost.hidden = false;
      }
      if (drag.moved) { ghost.style.left = ev.clientX + "px"; ghost.style.top = ev.clientY + "px"; }
    });
    function end(ev, dropped) {
      if (!drag) return;
      var d = drag, t = d.chip.dataset;
      drag = null;
      ghost.hidden = true;
      if (!dropped) return;
      if (!d.moved) {  // a click: the Unit tool, with this counter
        $("#t-side").value = t.side;
        $("#t-type").value = t.type;
        templateCounters();
        $("#t-counter").value = t.counter;
        setTool("unit");
        return;
      }
      var h = hexAtPage(ev.clientX, ev.clientY);
      if (!h) return;
      placeUnit(h, {side: t.side, type: t.type, counter: t.counter});
      changed();
    }
    box.addEventListener("pointerup", function (ev) { end(ev, true); });
    box.addEventListener("pointercancel", function (ev) { end(ev, false); });
    $("#tray-side").addEventListener("change", renderTray);
  }
  // ---- the counter's menu (right-click) and the keys
  function showMenu(id, x, y) {
    var i = unitIndex(id), u = units()[i], menu = $("#menu");
    if (!u) return;
    selectUnit(i);
    menu.textContent = "";
    menu.appendChild(el("div", {className: "menu-title"}, id));
    var have = Array.isArray(u.status) ? u.status : [];
    MENU.forEach(function (m) {
      var on = m[2] && have.indexOf(m[2]) >= 0;
      var label = m[0] === "broken" && on ? "Rally (not broken)" :
        m[0] === "flip" ? "Flip (" + (have.indexOf("broken") >= 0 ? "unbroken" : "broken") + " side up)" : (on ? "✓ " : "") + m[1];
      menu.appendChild(el("button", {type: "button", dataset: {act: m[0]}}, label));
    });
    menu.dataset.unit = id;
    menu.hidden = false;
    menu.style.left = Math.min(x, window.innerWidth - 160) + "px";
    menu.style.top = Math.min(y, window.innerHeight - 200) + "px";
  }
  function hideMenu() { $("#menu").hidden = true; }
  function menuAct(act, id) {
    var i = unitIndex(id), u = units()[i];
    hideMenu();
    if (!u) return;
    if (act === "delete") { deleteUnit(i); return; }
    var st = Array.isArray(u.status) ? u.status.slice() : [], j = st.indexOf(act);
    if (act === "flip") {
      // VASL's flip: the counter turned over, its broken side up or down
      // (the unbroken side is under no DM: A10.62)
      if (st.indexOf("broken") >= 0) st = st.filter(function (s) { return s !== "broken" && s !== "dm"; });
      else st.push("broken");
    } else if (j >= 0) st.splice(j, 1); else st.push(act);
    setField(u, "status", st);
    changed();
  }
  function deleteUnit(i) {
    if (!units()[i]) return;
    units().splice(i, 1);
    S.selected = null;
    changed();
  }
  function typing(ev) {
    var t = ev.target;
    return t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA" || t.isContentEditable);
  }
  function keys(ev) {
    if (ev.key === "Escape") { hideMenu(); hideWhy(); return; }
    if (typing(ev)) return;
    var k = ev.key.toLowerCase(), mod = ev.ctrlKey || ev.metaKey;
    if (mod && k === "z") { ev.preventDefault(); undo(!ev.shiftKey); }
    else if (mod && k === "y") { ev.preventDefault(); undo(false); }
    else if (ev.key === "Delete" && S.selected !== null) { ev.preventDefault(); deleteUnit(S.selected); }
  }
  function saveName() {
    if (!S.isNew) return S.filename;
    var n = String(S.tree.name || "").replace(/[^A-Za-z0-9._ -]+/g, "_").trim().replace(/\s+/g, "-");
    return (n || "position") + ".yaml";
  }
  function moveUnit(id, h) {
    var i = unitIndex(id);
    if (i < 0 || hexOf(units()[i].at) === h) return;
    units()[i].at = h;
    S.selected = i;
    changed();
  }
  function selectUnit(i) {
    S.selected = i === null || i < 0 ? null : i;
    render();
    markMap();
  }
  function hideWhy() {
    S.whySeq++;
    if (S.whyCtl) { S.whyCtl.abort(); S.whyCtl = null; }
    var box = $("#why");
    box.hidden = true;
    box.textContent = "";
    delete box.dataset.legal;
    delete box.dataset.at;
  }
  // Why not?: may the selected unit rout to h, stay, surrender to a unit in
  // h, be eliminated (as `asl-kb why-not POSITION UNIT FATE ...`); only the
  // latest question's answer is shown
  async function whyNot(h, hover) {
    var box = $("#why");
    var u = S.selected !== null && units()[S.selected];
    hideWhy();
    var seq = S.whySeq;
    box.hidden = false;
    box.className = "";
    if (!u) { box.textContent = "why not? select a unit first"; return; }
    var fate = hover ? "rout" : $("#why-fate").value, ask_ = {unit: u.id, fate: fate, at: h};
    var said = fate === "rout" ? "rout to " + h : fate;
    if (fate === "surrender") {
      var captor = units().filter(function (x) { return x && x.side !== u.side && hexOf(x.at) === h; })[0];
      if (!captor) { box.textContent = "why not? surrender: click a hex holding an enemy unit (the captor)"; return; }
      ask_.captor = captor.id;
      said = "surrender to " + captor.id;
    }
    box.textContent = "why not: " + u.id + " " + said + " …";
    var ctl = new AbortController();
    S.whyCtl = ctl;
    var got;
    try { got = await ask("/api/why-not", body(ask_), ctl.signal); } catch (e) { return; }
    if (seq !== S.whySeq) return;  // a later question, or an edit since
    S.whyCtl = null;
    if (got.offline) { box.textContent = OFFLINE; box.className = "illegal"; return; }
    if (!got.r.ok) {
      box.textContent = (got.data.error && got.data.error.message) || ("HTTP " + got.r.status);
      box.className = "illegal";
      return;
    }
    box.textContent = got.data.text;
    box.className = got.data.why_not.legal ? "legal" : "illegal";
    box.dataset.legal = String(got.data.why_not.legal);
    box.dataset.at = h;
  }
  // the pointer resting on a hex the selected unit's fates do not reach:
  // may it rout there? (as Why not? asks, after a short rest; moving on
  // cancels it)
  function hovered(h) {
    clearTimeout(S.hoverTimer);
    var u = S.selected !== null && units()[S.selected];
    if (!h || !u || S.tool !== "select" || S.drag || S.error || document.body.dataset.stale === "true") return;
    var reached = fatesOf(u.id).some(function (f) { return hexOf(f.at) === h; });
    if (reached || hexOf(u.at) === h || $("#why").dataset.at === h) return;
    S.hoverTimer = setTimeout(function () { whyNot(h, true); }, 600);
  }

  // ---- the panels, drawn from the tree
  function render() {
    var t = S.tree, m = t.map || {};
    $("#filename").textContent = S.filename;
    $("#f-name").value = t.name || "";
    $("#f-notes").value = typeof t.notes === "string" ? t.notes : "";
    $("#undo").disabled = !S.history.length;
    $("#redo").disabled = !S.future.length;
    var sides = sidesKnown();
    options($("#f-attacker"), sides, t.attacker, "—");
    options($("#f-phase"), S.meta.phases, t.phase, "(rout)");
    options($("#f-rules"), S.meta.versions, t.rules, "(current)");
    options($("#f-default"), S.meta.terrains, m.default_terrain, "(open)");
    $("#f-board").value = m.board || "";
    renderBoards(m);
    $("#f-area").textContent = Array.isArray(m.area) ? m.area.join("–") : "whole board";
    var nq = $("#f-no-quarter");
    nq.textContent = "";
    var given = Array.isArray(t.no_quarter) ? t.no_quarter : [];
    sidesInPlay(given).forEach(function (s) {
      var c = el("input", {type: "checkbox", value: s, checked: given.indexOf(s) >= 0});
      c.dataset.nq = s;
      var l = el("label", {}, "");
      l.appendChild(c); l.appendChild(document.createTextNode(s));
      nq.appendChild(l);
    });
    renderSwitches("errata", S.meta.errata, $("#f-errata"));
    renderSwitches("readings", S.meta.readings, $("#f-readings"));
    renderUnitEditor();
    renderUnitList();
    renderLos();
    renderHexsides();
    if (S.error) showError(S.error); else markMap();
  }
  // map.boards: a row of VASL boards by name is edited here; a layout of
  // rows, reversed or cropped boards is the file's (shown, not edited). On
  // boards the painted map's fields are hidden (the loader refuses them
  // there), unless one is set: its error is shown on it
  function renderBoards(m) {
    var bs = Array.isArray(m.boards) ? m.boards : [], input = $("#f-boards");
    var plain = bs.every(function (b) { return typeof b === "string"; });
    input.value = bs.map(function (b) { return typeof b === "string" ? b : String((b && b.board) || "?"); }).join(" ");
    input.disabled = !plain;
    input.title = plain ? "" : "a layout of rows, reversed or cropped boards: edit it in the file";
    var painted = {board: m.board, default_terrain: m.default_terrain, area: m.area};
    document.querySelectorAll("#header-fields .painted").forEach(function (x) {
      var key = (x.dataset.key || x.querySelector("[data-key]").dataset.key).replace("map.", "");
      x.hidden = bs.length > 0 && painted[key] === undefined;
    });
  }
  function sidesKnown() {
    var out = S.meta.sides.slice();
    units().forEach(function (u) { if (u && u.side && out.indexOf(u.side) < 0) out.push(u.side); });
    if (S.tree.attacker && out.indexOf(S.tree.attacker) < 0) out.push(S.tree.attacker);
    return out;
  }
  function sidesInPlay(extra) {
    var out = [];
    units().forEach(function (u) { if (u && u.side && out.indexOf(u.side) < 0) out.push(u.side); });
    (extra || []).concat([S.tree.attacker]).forEach(function (s) { if (s && out.indexOf(s) < 0) out.push(s); });
    return out;
  }
  function renderSwitches(key, names, box) {
    box.textContent = "";
    var given = S.tree[key] && typeof S.tree[key] === "object" ? S.tree[key] : {};
    names.forEach(function (n) {
      var l = el("label", {dataset: {key: key + "." + n}}, n + " ");
      var s = el("select", {}, "");
      s.dataset.switch = key; s.dataset.name = n;
      options(s, ["on", "off"], given[n], "default");
      l.appendChild(s);
      box.appendChild(l);
    });
  }
  function renderUnitEditor() {
    var box = $("#unit-editor");
    box.textContent = "";
    var i = S.selected, u = i !== null && units()[i];
    if (!u) { box.appendChild(el("p", {className: "hint"}, "click a counter to edit it; drag it to move it")); return; }
    UNIT_FIELDS.forEach(function (f) {
      var l = el("label", {dataset: {key: "units[" + i + "]." + f}}, f + " ");
      var input;
      if (f === "side") { input = el("select"); options(input, sidesKnown(), u.side, "—"); }
      else if (f === "type") { input = el("select"); options(input, S.meta.types, u.type, "—"); }
      else if (f === "class") { input = el("select"); options(input, S.meta.classes, u["class"], "—"); }
      else if (f in UNIT_REFS) {
        input = el("select");
        options(input, units().filter(function (x) { return x && x.id !== u.id; }).map(function (x) { return x.id; }), u[f], UNIT_REFS[f]);
      } else input = el("input", {value: u[f] || ""});
      input.dataset.field = f;
      l.appendChild(input);
      box.appendChild(l);
    });
    var sw = el("label", {dataset: {key: "units[" + i + "].sw"}}, "SW ");
    var swi = el("input", {value: (Array.isArray(u.sw) ? u.sw.filter(function (x) { return typeof x === "string"; }) : []).join(", "),
                           placeholder: "lmg, mmg"});
    swi.dataset.field = "sw";
    sw.appendChild(swi);
    box.appendChild(sw);
    var gd = el("label", {dataset: {key: "units[" + i + "].guarding"}}, "guarding ");
    var gdi = el("input", {value: (Array.isArray(u.guarding) ? u.guarding : []).join(", "), placeholder: "prisoners' ids"});
    gdi.dataset.field = "guarding";
    gd.appendChild(gdi);
    box.appendChild(gd);
    var st = el("div", {className: "checks", dataset: {key: "units[" + i + "].status"}});
    var have = Array.isArray(u.status) ? u.status : [];
    S.meta.statuses.forEach(function (s) {
      var l = el("label", {}, "");
      var c = el("input", {type: "checkbox", value: s, checked: have.indexOf(s) >= 0});
      c.dataset.status = s;
      l.appendChild(c); l.appendChild(document.createTextNode(s));
      st.appendChild(l);
    });
    box.appendChild(st);
    box.appendChild(el("button", {type: "button", id: "delete-unit"}, "delete " + u.id));
  }
  function renderUnitList() {
    var ol = $("#unit-list");
    ol.textContent = "";
    units().forEach(function (u, i) {
      if (!u || typeof u !== "object") return;
      var li = el("li", {dataset: {key: "units[" + i + "]", index: String(i)}},
                  (u.id || "?") + " (" + (u.side || "?") + ") " + (u.at || "?") +
                  (Array.isArray(u.status) && u.status.length ? " — " + u.status.join(", ") : ""));
      if (i === S.selected) li.className = "selected";
      ol.appendChild(li);
    });
  }
  function renderLos() {
    var ul = $("#los-list");
    ul.textContent = "";
    var los = S.tree.los || {};
    ["blocked", "clear", "hindrance"].forEach(function (k) {
      (Array.isArray(los[k]) ? los[k] : []).forEach(function (p, i) {
        var li = el("li", {dataset: {key: "los." + k + "[" + i + "]"}}, k + ": " + (Array.isArray(p) ? p.join(" – ") : p) + " ");
        li.appendChild(el("button", {type: "button", dataset: {losKind: k, losIndex: String(i)}}, "×"));
        ul.appendChild(li);
      });
    });
  }
  function renderHexsides() {
    var ul = $("#hexside-list"), hs = (S.tree.map && S.tree.map.hexsides) || {};
    ul.textContent = "";
    if (typeof hs !== "object" || Array.isArray(hs)) return;
    Object.keys(hs).forEach(function (k) {
      var li = el("li", {dataset: {key: "map.hexsides." + k}}, k + ": " + hs[k] + " ");
      li.appendChild(el("button", {type: "button", dataset: {hexside: k}}, "×"));
      ul.appendChild(li);
    });
  }
  function renderTools() {
    var list = $("#tool-list");
    TOOLS.forEach(function (t) {
      var b = el("button", {type: "button", id: "tool-" + t[0]}, t[1]);
      b.dataset.tool = t[0];
      list.appendChild(b);
    });
    S.meta.terrains.forEach(function (n) {
      var b = el("button", {type: "button"}, n.replace(/_/g, " "));
      b.dataset.terrain = n;
      $("#palette-terrain").appendChild(b);
    });
    S.meta.features.forEach(function (n) {
      var b = el("button", {type: "button"}, n);
      b.dataset.feature = n;
      $("#palette-feature").appendChild(b);
    });
    S.meta.hexsides.concat(["none"]).forEach(function (n) {
      var b = el("button", {type: "button"}, n);
      b.dataset.hexside = n;
      $("#palette-hexside").appendChild(b);
    });
    options($("#t-side"), S.meta.sides, "german");
    options($("#tray-side"), S.meta.sides, "german");
    renderTray();
    options($("#t-type"), S.meta.types, "squad");
    templateCounters();
    S.meta.statuses.forEach(function (s) {
      var l = el("label", {}, "");
      var c = el("input", {type: "checkbox", value: s});
      l.appendChild(c); l.appendChild(document.createTextNode(s));
      $("#t-status").appendChild(l);
    });
    setTool("select");
  }
  function templateCounters() {
    var type = $("#t-type").value, own = (SIDE_COUNTERS[$("#t-side").value] || {})[type] || [];
    var list = own.concat(COUNTERS[type] || []);
    options($("#t-counter"), list.filter(function (v, i) { return list.indexOf(v) === i; }), list[0] || "", "(none)");
  }
  function setTool(t) {
    S.tool = t;
    S.losFirst = S.areaFirst = S.sideFirst = null;
    $("#hexside-hint").textContent = "click one hex, then an ADJACENT one";
    document.querySelectorAll("#tool-list button").forEach(function (b) { b.classList.toggle("on", b.dataset.tool === t); });
    document.querySelectorAll("#tool-options > div").forEach(function (d) { d.classList.toggle("shown", d.dataset.for === t); });
    document.querySelectorAll("#palette-terrain button").forEach(function (b) { b.classList.toggle("on", b.dataset.terrain === S.terrain); });
    document.querySelectorAll("#palette-feature button").forEach(function (b) { b.classList.toggle("on", b.dataset.feature === S.feature); });
    document.querySelectorAll("#palette-hexside button").forEach(function (b) { b.classList.toggle("on", b.dataset.hexside === S.hexside); });
    markMap();
  }

  // ---- wiring the page
  function wire() {
    wireTray();
    $("#tool-list").addEventListener("click", function (ev) {
      var b = ev.target.closest("button[data-tool]");
      if (b) setTool(b.dataset.tool);
    });
    $("#palette-terrain").addEventListener("click", function (ev) {
      var b = ev.target.closest("button[data-terrain]");
      if (b) { S.terrain = b.dataset.terrain; setTool("terrain"); }
    });
    $("#palette-feature").addEventListener("click", function (ev) {
      var b = ev.target.closest("button[data-feature]");
      if (b) { S.feature = b.dataset.feature; setTool("feature"); }
    });
    $("#palette-hexside").addEventListener("click", function (ev) {
      var b = ev.target.closest("button[data-hexside]");
      if (b) { S.hexside = b.dataset.hexside; setTool("hexside"); }
    });
    $("#hexside-list").addEventListener("click", function (ev) {
      var b = ev.target.closest("button[data-hexside]");
      if (!b || !S.tree.map || !S.tree.map.hexsides) return;
      delete S.tree.map.hexsides[b.dataset.hexside];
      changed();
    });
    $("#t-type").addEventListener("change", templateCounters);
    $("#t-side").addEventListener("change", templateCounters);
    $("#why").addEventListener("click", function () { this.hidden = true; });
    $("#phase-toggle").addEventListener("change", schedule);
    $("#f-name").addEventListener("change", function () { setField(S.tree, "name", this.value); changed(); });
    $("#f-attacker").addEventListener("change", function () { setField(S.tree, "attacker", this.value); changed(); });
    $("#f-phase").addEventListener("change", function () { setField(S.tree, "phase", this.value); changed(); });
    $("#f-rules").addEventListener("change", function () { setField(S.tree, "rules", this.value); changed(); });
    $("#f-board").addEventListener("change", function () { setField(mapSec(), "board", this.value.trim()); changed(); });
    $("#f-boards").addEventListener("change", function () {
      setField(mapSec(), "boards", this.value.split(/[\s,]+/).filter(Boolean));
      changed();
    });
    $("#f-default").addEventListener("change", function () { setField(mapSec(), "default_terrain", this.value); changed(); });
    $("#board-note").addEventListener("click", function (ev) { if (ev.target.id === "use-vasl-board") useVaslBoard(); });
    $("#whole-board").addEventListener("click", function () { if (S.tree.map) delete S.tree.map.area; changed(); });
    $("#f-no-quarter").addEventListener("change", function () {
      var on = Array.prototype.map.call(document.querySelectorAll("#f-no-quarter input:checked"), function (x) { return x.value; });
      setField(S.tree, "no_quarter", on);
      changed();
    });
    $("#switches").addEventListener("change", function (ev) {
      var s = ev.target;
      if (!s.dataset.switch) return;
      var m = sec(s.dataset.switch);
      setField(m, s.dataset.name, s.value);
      prune(S.tree, s.dataset.switch);
      changed();
    });
    $("#unit-editor").addEventListener("change", function (ev) {
      var x = ev.target, u = units()[S.selected];
      if (!u) return;
      if (x.dataset.status) {
        var st = Array.isArray(u.status) ? u.status.slice() : [];
        var i = st.indexOf(x.dataset.status);
        if (x.checked && i < 0) st.push(x.dataset.status);
        if (!x.checked && i >= 0) st.splice(i, 1);
        setField(u, "status", st);
      } else if (x.dataset.field === "sw" || x.dataset.field === "guarding") {
        setField(u, x.dataset.field, x.value.split(",").map(function (s) { return s.trim(); }).filter(Boolean));
      } else if (x.dataset.field) {
        setField(u, x.dataset.field, x.value.trim());
      }
      changed();
    });
    $("#unit-editor").addEventListener("click", function (ev) {
      if (ev.target.id === "delete-unit") deleteUnit(S.selected);
    });
    $("#menu").addEventListener("click", function (ev) {
      var b = ev.target.closest("button[data-act]");
      if (b) menuAct(b.dataset.act, this.dataset.unit);
    });
    document.addEventListener("pointerdown", function (ev) { if (!ev.target.closest("#menu")) hideMenu(); });
    document.addEventListener("keydown", keys);
    $("#undo").addEventListener("click", function () { undo(true); });
    $("#redo").addEventListener("click", function () { undo(false); });
    $("#cancel").addEventListener("click", cancel);
    $("#fit").addEventListener("click", fit);
    $("#centre").addEventListener("click", centre);
    $("#zoom-in").addEventListener("click", function () { zoomTo((S.zoom || 1) * 1.25); });
    $("#zoom-out").addEventListener("click", function () { zoomTo((S.zoom || 1) / 1.25); });
    $("#f-notes").addEventListener("change", function () { setField(S.tree, "notes", this.value); changed(); });
    window.addEventListener("beforeunload", function (ev) {
      if (dirty()) { ev.preventDefault(); ev.returnValue = ""; }
    });
    $("#unit-list").addEventListener("click", function (ev) {
      var li = ev.target.closest("li[data-index]");
      if (li) selectUnit(+li.dataset.index);
    });
    $("#los-list").addEventListener("click", function (ev) {
      var b = ev.target.closest("button[data-los-kind]");
      if (!b) return;
      S.tree.los[b.dataset.losKind].splice(+b.dataset.losIndex, 1);
      changed();
    });
    $("#new").addEventListener("click", function () {
      if (dirty() && !window.confirm("Discard the edits of " + S.filename + "?")) return;
      open({filename: "new-position.yaml", text: null, tree: {name: "new position", attacker: "german", units: []}, fresh: true});
    });
    $("#open-file").addEventListener("change", function () {
      var f = this.files[0];
      this.value = "";
      if (f) openFile(f);
    });
    // a file dropped on the page or the map: opened as Open… opens it
    document.addEventListener("dragover", dragOver);
    document.addEventListener("drop", dropped);
    $("#save").addEventListener("click", async function () {
      var r;
      try { r = await post("/api/save", body()); }
      catch (e) { showError({message: OFFLINE}); setState("error", "not saved: the server does not answer"); return; }
      if (!r.ok) {
        var d = await r.json().catch(function () { return {}; });
        showError(d.error || {message: "HTTP " + r.status});
        setState("error", "not saved");
        return;
      }
      var blob = await r.blob(), name = saveName();
      S.clean = JSON.stringify(S.tree);
      var a = el("a", {href: URL.createObjectURL(blob), download: name});
      document.body.appendChild(a);
      a.click();
      a.remove();
    });
  }
  function dragOver(ev) {
    if (ev.dataTransfer && Array.prototype.indexOf.call(ev.dataTransfer.types, "Files") >= 0) ev.preventDefault();
  }
  function dropped(ev) {
    var f = ev.dataTransfer && ev.dataTransfer.files && ev.dataTransfer.files[0];
    if (!f) return;
    ev.preventDefault();
    openFile(f);
  }
  // a position file (YAML) or a VASL saved game (.vsav, read by the server
  // as `asl-kb import` reads it; a game that does not say whose Player
  // Turn it is asks for the ATTACKER)
  function openFile(f) {
    if (dirty() && !window.confirm("Discard the edits of " + S.filename + "?")) return;
    var game = /\.vsav$/i.test(f.name), reader = new FileReader();
    reader.onload = async function () {
      var req = {filename: f.name}, got;
      if (game) {
        var bytes = new Uint8Array(reader.result), bin = "";
        for (var i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
        req.vsav = btoa(bin);
      } else req.text = reader.result;
      for (;;) {
        got = await ask("/api/open", req);
        if (got.offline || got.r.ok || !got.data.sides || req.attacker) break;
        var side = window.prompt("Whose Player Turn is it? The ATTACKER: " + got.data.sides.join(", "), got.data.sides[0]);
        if (!side) break;
        req.attacker = side;
      }
      if (got.offline) { showError({message: OFFLINE}); setState("error", "not opened: the server does not answer"); return; }
      if (!got.r.ok) { showError(got.data.error); setState("error", "not opened"); return; }
      open(got.data);
      if (got.data.warnings && got.data.warnings.length)
        S.notice = f.name + ": not read from the game: " + got.data.warnings.join("; ");
    };
    if (game) reader.readAsArrayBuffer(f); else reader.readAsText(f);
  }
  function open(data) {
    S.tree = data.tree;
    S.original = data.text;
    S.filename = data.filename;
    S.isNew = data.text === null || data.text === undefined;
    S.selected = null;
    S.error = null;
    S.last = S.clean = JSON.stringify(S.tree);
    S.history = [];
    S.future = [];
    S.fitDue = true;
    S.notice = null;
    S.expanded = {};
    hideWhy();
    showError(null);
    render();
    schedule();
  }

  // what the page shows, for scripts and tests: the last answer's result
  window.aslKbServe = {get result() { return S.result; }, get tree() { return S.tree; }};

  async function start() {
    setState("starting", "starting…");
    S.meta = await (await fetch("/api/meta")).json();
    renderTools();
    wire();
    open(await (await fetch("/api/start")).json());
  }
  start();
})();
