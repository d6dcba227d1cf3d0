/* damas: interactive diagrams. The boards drawn from the build's data, replays of lines, puzzles
   solved on the board, copy buttons, and the position editor. Vanilla JavaScript, no framework, no
   network, works from file://.
   The browser knows no rules: every position (a FEN), legal move and board table comes from the
   build as JSON in the page (generator/render/interactive.py, generator/render/liveboard.py); every
   word from the build's message catalog (generator/render/jswords.py). Without this script the
   pages show the build's SVG pictures (in <noscript>) and the controls stay hidden. */
(function () {
  "use strict";

  var SVGNS = "http://www.w3.org/2000/svg";
  var DELAY = 600; /* ms between the student's move and the defence */

  function jsonById(id) {
    var el = document.getElementById(id);
    try {
      return el ? JSON.parse(el.textContent) : null;
    } catch (e) {
      return null;
    }
  }
  var WORDS = jsonById("damas-words") || {};
  var STYLES = jsonById("damas-boards") || {};

  function w(key, args) {
    var text = WORDS[key] || key;
    return text.replace(/%\((\w+)\)s/g, function (all, name) {
      return args && name in args ? String(args[name]) : all;
    });
  }
  function side(key, color, args) { return w(key + (color === 0 ? "_w" : "_b"), args); }

  function data(el) {
    return JSON.parse(el.querySelector('script[type="application/json"]').textContent);
  }

  function button(text, cls, label) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    if (cls) b.className = cls;
    if (label) b.setAttribute("aria-label", label);
    return b;
  }

  /* ---- positions: FENs read with the board's own square list ----------------------------- */

  function readFen(style, fen) {
    var fields = fen.split(":");
    var pieces = {};
    fields.slice(1).forEach(function (field) {
      field = field.trim();
      var letter = field.charAt(0).toUpperCase();
      if (letter !== "W" && letter !== "B") return; /* draw counters (H, F) */
      field.slice(1).split(",").forEach(function (token) {
        token = token.trim();
        if (!token) return;
        var king = token.charAt(0) === "K";
        if (king) token = token.slice(1);
        var names = [token];
        var dash = token.indexOf("-");
        if (dash > 0) {
          var a = style.order.indexOf(token.slice(0, dash));
          var b = style.order.indexOf(token.slice(dash + 1));
          names = style.order.slice(a, b + 1);
        }
        names.forEach(function (name) { pieces[name] = [letter === "W" ? 0 : 1, king]; });
      });
    });
    return { turn: fields[0].trim().toUpperCase() === "B" ? 1 : 0, pieces: pieces };
  }

  /* The position in words, as generator/render/svg.py describe_position writes it. */
  function describe(style, pos) {
    var d = WORDS.describe;
    var sentences = [];
    [0, 1].forEach(function (color) {
      var parts = [];
      [["men", false], ["kings", true]].forEach(function (kind) {
        var squares = style.described.filter(function (name) {
          var p = pos.pieces[name];
          return p && p[0] === color && p[1] === kind[1];
        });
        if (squares.length) parts.push(d[kind[0]][squares.length === 1 ? 0 : 1] + " " + squares.join(", "));
      });
      sentences.push(d.side[color] + ": " + (parts.length ? parts.join("; ") : d.none) + ".");
    });
    sentences.push(d.turn[pos.turn]);
    return sentences.join(" ");
  }

  /* "White play: 27x18x11. Captured: 23, 15." for the move that led to a position. */
  function playedText(mover, move) {
    var text = side("played", mover, { move: move.t });
    if (move.cap && move.cap.length) {
      text += " " + w(move.cap.length === 1 ? "captured_one" : "captured_many", { squares: move.cap.join(", ") });
    }
    return text;
  }

  function marksOf(move) {
    if (!move) return {};
    if (move.cap && move.cap.length) return { r: move.path, c: move.cap };
    return { a: [[move.from, move.to]] };
  }

  /* ---- drawing: the same picture as templates/board.svg.j2 ------------------------------- */

  function num(v) {
    var s = Number(v).toFixed(2);
    s = s.replace(/0+$/, "").replace(/\.$/, "");
    return s === "-0" ? "0" : s;
  }

  function el(tag, attrs, parent, text) {
    var e = document.createElementNS(SVGNS, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }

  function paint(style, attrs, kind, role) {
    var p = style.paint[role];
    attrs[kind] = p[0];
    if (p[1] < 1) attrs[kind + "-opacity"] = String(p[1]);
    return attrs;
  }

  function points(list) {
    return list.map(function (p) { return num(p[0]) + "," + num(p[1]); }).join(" ");
  }

  function arrowhead(style, a, b) {
    var dx = b[0] - a[0];
    var dy = b[1] - a[1];
    var len = Math.hypot(dx, dy) || 1;
    var ux = dx / len;
    var uy = dy / len;
    var headLen = style.head[0];
    var half = style.head[1];
    var over = ((style.line_w / 2) * headLen) / half + 0.5;
    var tip = [b[0] + ux * over, b[1] + uy * over];
    var base = [tip[0] - ux * headLen, tip[1] - uy * headLen];
    var px = -uy;
    var py = ux;
    return [tip, [base[0] + px * half, base[1] + py * half], [base[0] - px * half, base[1] - py * half]];
  }

  function drawBoard(style, board, label) {
    var pos = readFen(style, board.f);
    var at = {};
    style.squares.forEach(function (s) { at[s[0]] = [s[1], s[2]]; });
    var half = style.square / 2;
    function centre(name) { return [at[name][0] + half, at[name][1] + half]; }
    var svg = el("svg", {
      xmlns: SVGNS, version: "1.1", viewBox: "0 0 " + num(style.w) + " " + num(style.h),
      role: "img", "aria-label": label, "data-diagram": "board",
    });
    el("rect", paint(style, { x: "0", y: "0", width: num(style.w), height: num(style.h) }, "fill", "background"), svg);
    var g = el("g", { "data-layer": "board" }, svg);
    var f = style.frame;
    var frame = paint(style, { x: num(f[0]), y: num(f[1]), width: num(f[2]), height: num(f[3]) }, "fill", "square light");
    paint(style, frame, "stroke", "border");
    frame["stroke-width"] = num(style.border);
    el("rect", frame, g);
    style.squares.forEach(function (s) {
      var a = paint(style, { x: num(s[1]), y: num(s[2]), width: num(style.square), height: num(style.square) }, "fill", style.role);
      if (style.full) {
        paint(style, a, "stroke", "grid");
        a["stroke-width"] = "1";
      }
      a["data-square"] = s[0];
      el("rect", a, g);
    });
    if (board.h && board.h.length) {
      var hl = paint(style, paint(style, {}, "fill", "highlight fill"), "stroke", "highlight");
      hl["data-layer"] = "highlight";
      hl["stroke-width"] = "4";
      g = el("g", hl, svg);
      board.h.forEach(function (name) {
        el("rect", { x: num(at[name][0] + 2.5), y: num(at[name][1] + 2.5), width: num(style.square - 5), height: num(style.square - 5), "data-square": name }, g);
      });
    }
    if (style.coordinates.length) {
      g = el("g", paint(style, { "data-layer": "coordinates", "font-family": style.font, "font-size": num(style.coordinate_size) }, "fill", "coordinate"), svg);
      style.coordinates.forEach(function (t) { el("text", { x: num(t[0]), y: num(t[1]), "text-anchor": "middle" }, g, t[2]); });
    }
    var placed = style.squares.filter(function (s) { return pos.pieces[s[0]]; });
    if (placed.length) {
      g = el("g", { "data-layer": "pieces" }, svg);
      placed.forEach(function (s) {
        var p = pos.pieces[s[0]];
        var color = p[0] === 0 ? "white" : "black";
        var c = centre(s[0]);
        var pg = el("g", { transform: "translate(" + num(c[0]) + " " + num(c[1]) + ")", "data-piece": color + " " + (p[1] ? "king" : "man"), "data-square": s[0] }, g);
        var disc = paint(style, paint(style, { r: num(style.piece_r) }, "fill", color + " man"), "stroke", color + " man edge");
        disc["stroke-width"] = "1.5";
        el("circle", disc, pg);
        if (p[1]) {
          var crown = paint(style, paint(style, { d: style.crown }, "fill", color + " crown"), "stroke", color + " crown edge");
          crown["stroke-width"] = "0.8";
          crown["stroke-linejoin"] = "round";
          crown["data-crown"] = "1";
          el("path", crown, pg);
        } else {
          var ring = paint(style, { r: num(style.ring_r), fill: "none" }, "stroke", color + " man ring");
          ring["stroke-width"] = "1.5";
          el("circle", ring, pg);
        }
      });
    }
    if (style.numbers.length) {
      var halo = paint(style, { "data-layer": "number-halo", "font-family": style.font, "font-size": num(style.number_size), fill: "none" }, "stroke", style.halo_role);
      halo["stroke-width"] = num(style.halo);
      halo["stroke-linejoin"] = "round";
      halo["aria-hidden"] = "true";
      g = el("g", halo, svg);
      style.numbers.forEach(function (t) { el("text", { x: num(t[0]), y: num(t[1]) }, g, t[2]); });
      g = el("g", paint(style, { "data-layer": "numbers", "font-family": style.font, "font-size": num(style.number_size) }, "fill", style.number_role), svg);
      style.numbers.forEach(function (t) { el("text", { x: num(t[0]), y: num(t[1]) }, g, t[2]); });
    }
    function shaft(layer, attrs, list, kind) {
      var a = centre(list[list.length - 2]);
      var b = centre(list[list.length - 1]);
      var pts = points(list.map(centre));
      var head = points(arrowhead(style, a, b));
      attrs["data-layer"] = layer;
      attrs["stroke-linejoin"] = "round";
      var group = el("g", attrs, svg);
      var casing = paint(style, { points: pts, fill: "none" }, "stroke", kind + " casing");
      casing["stroke-width"] = num(style.casing_w);
      el("polyline", casing, group);
      var cap = paint(style, paint(style, { points: head }, "fill", kind + " casing"), "stroke", kind + " casing");
      cap["stroke-width"] = num(style.casing_w - style.line_w);
      el("polygon", cap, group);
      var line = paint(style, { points: pts, fill: "none" }, "stroke", kind);
      line["stroke-width"] = num(style.line_w);
      if (kind === "route") line["data-path"] = "1";
      el("polyline", line, group);
      el("polygon", paint(style, { points: head }, "fill", kind), group);
      return group;
    }
    (board.a || []).forEach(function (pair) { shaft("arrow", { "data-move": pair[0] + "-" + pair[1] }, pair, "arrow"); });
    if (board.r && board.r.length > 1) {
      var route = shaft("route", { "data-route": board.r.join(" ") }, board.r, "route");
      board.r.slice(1, -1).forEach(function (name) {
        var c = centre(name);
        var stop = paint(style, paint(style, { cx: num(c[0]), cy: num(c[1]), r: "5.5" }, "fill", "route"), "stroke", "route casing");
        stop["stroke-width"] = "1.5";
        stop["data-stop"] = "1";
        el("circle", stop, route);
      });
    }
    if (board.c && board.c.length) {
      g = el("g", { "data-layer": "captured", "stroke-linecap": "round", fill: "none" }, svg);
      var k = num(style.cross);
      var d = "M-" + k + ",-" + k + " L" + k + "," + k + " M-" + k + "," + k + " L" + k + ",-" + k;
      board.c.forEach(function (name) {
        var c = centre(name);
        var cg = el("g", { transform: "translate(" + num(c[0]) + " " + num(c[1]) + ")", "data-captured": name }, g);
        var under = paint(style, { d: d }, "stroke", "captured casing");
        under["stroke-width"] = "8";
        el("path", under, cg);
        var over = paint(style, { d: d }, "stroke", "captured");
        over["stroke-width"] = "4.5";
        el("path", over, cg);
      });
    }
    var m = style.marker[pos.turn];
    var mover = pos.turn === 0 ? "white" : "black";
    var marker = paint(style, paint(style, { cx: num(m[0]), cy: num(m[1]), r: num(m[2]) }, "fill", mover + " man"), "stroke", mover + " man edge");
    marker["stroke-width"] = "1.5";
    marker["data-layer"] = "side-to-move";
    marker["data-color"] = mover;
    el("circle", marker, svg);
    return svg;
  }

  /* One per drawn board (a .board element with its data): shows a position, or the first again. */
  function board(box) {
    if (box._board) return box._board;
    var first = JSON.parse(box.getAttribute("data-board"));
    var style = STYLES[first.b];
    if (!style) return null;
    var alt = "";
    var ns = box.querySelector("noscript");
    if (ns && window.DOMParser) {
      var img = new DOMParser().parseFromString(ns.textContent, "text/html").querySelector("img");
      if (img) alt = img.getAttribute("alt") || "";
    }
    if (!alt) alt = describe(style, readFen(style, first.f));
    var shown = null;
    box._board = {
      box: box,
      style: style,
      first: first,
      svg: null,
      /* board: {f, r, c, a, h} (null: the first picture); label: the text alternative */
      show: function (b, label) {
        var svg = drawBoard(style, b || first, b ? label : alt);
        if (shown) box.replaceChild(svg, shown);
        else box.insertBefore(svg, box.firstChild);
        shown = svg;
        this.svg = svg;
      },
      position: function (fen) { return readFen(style, fen); },
      describe: function (fen) { return describe(style, readFen(style, fen)); },
    };
    box.classList.add("drawn");
    box._board.show(null);
    return box._board;
  }

  function boardOf(el) {
    var host = hostOf(el);
    var box = host ? host.querySelector(".board[data-board]") : null;
    return box ? board(box) : null;
  }

  /* ---- copy buttons ---------------------------------------------------------------------- */

  function copyStatus(btn) {
    var s = btn.parentNode.querySelector(".copy-status");
    if (!s) {
      s = document.createElement("span");
      s.className = "copy-status";
      s.setAttribute("role", "status");
      btn.parentNode.appendChild(s);
    }
    return s;
  }

  function copy(btn) {
    var text = btn.getAttribute("data-copy-text");
    var status = copyStatus(btn);
    var done = btn.getAttribute("data-copied") || w("copied");
    function ok() {
      status.textContent = done;
    }
    function fallback() {
      var old = btn.parentNode.querySelector("textarea.copy-fallback");
      if (old) old.remove();
      var area = document.createElement("textarea");
      area.className = "copy-fallback";
      area.readOnly = true;
      area.value = text;
      area.setAttribute("aria-label", btn.textContent);
      btn.parentNode.appendChild(area);
      area.focus();
      area.select();
      var copied = false;
      try {
        copied = document.execCommand("copy");
      } catch (e) {
        copied = false;
      }
      if (copied) {
        area.remove();
        btn.focus();
        ok();
      } else {
        status.textContent = w("selected");
      }
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(ok, fallback);
    } else {
      fallback();
    }
  }

  document.addEventListener("click", function (e) {
    var btn = e.target.closest && e.target.closest("[data-copy-text]");
    if (btn) copy(btn);
  });

  /* ---- replay ---------------------------------------------------------------------------- */

  function initReplay(group) {
    var d = data(group);
    var b = boardOf(group);
    if (!b) return;
    var n = d.steps.length;
    var k = 0;
    var spans = group.querySelectorAll(".mv");
    var status = group.querySelector(".replay-status");
    var go = {};
    group.querySelectorAll("[data-go]").forEach(function (btn) {
      go[btn.getAttribute("data-go")] = btn;
    });

    function show(i) {
      k = Math.max(0, Math.min(n, i));
      if (k === 0) b.show(null);
      else {
        var s = d.steps[k - 1];
        var after = b.position(s.f);
        var label = w("move_of", { num: k, count: n, move: s.t }) + " " + playedText(1 - after.turn, s) + " " + b.describe(s.f);
        var marks = marksOf(s);
        b.show({ f: s.f, r: marks.r, c: marks.c, a: marks.a }, label);
      }
      spans.forEach(function (el, j) {
        if (j === k - 1) el.setAttribute("aria-current", "step");
        else el.removeAttribute("aria-current");
      });
      status.textContent = k === 0 ? w("line_start") : w("move_of", { num: k, count: n, move: d.steps[k - 1].t });
      /* aria-disabled, not disabled: a focused button must stay focusable at the ends */
      go.first.setAttribute("aria-disabled", String(k === 0));
      go.back.setAttribute("aria-disabled", String(k === 0));
      go.forward.setAttribute("aria-disabled", String(k === n));
      go.last.setAttribute("aria-disabled", String(k === n));
    }
    var moves = {
      first: function () { show(0); },
      back: function () { show(k - 1); },
      forward: function () { show(k + 1); },
      last: function () { show(n); },
    };
    group.addEventListener("click", function (e) {
      var btn = e.target.closest("[data-go]");
      if (btn) moves[btn.getAttribute("data-go")]();
      var mv = e.target.closest(".mv");
      if (mv) show(Number(mv.getAttribute("data-step")));
    });
    group.addEventListener("keydown", function (e) {
      var keys = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };
      if (keys[e.key] && !e.altKey && !e.ctrlKey && !e.metaKey) {
        e.preventDefault();
        moves[keys[e.key]]();
      }
    });
    group._replay = { show: show };
    group.hidden = false;
    show(0);
    status.textContent = "";
  }

  /* ---- solve on the board ---------------------------------------------------------------- */

  function store(key, value) {
    try {
      if (value === undefined) return window.localStorage.getItem(key);
      window.localStorage.setItem(key, value);
    } catch (e) {
      return null; /* storage off: progress is simply not kept */
    }
    return null;
  }

  function unique(list) {
    return list.filter(function (x, i) { return list.indexOf(x) === i; });
  }

  function initSolve(panel) {
    var d = data(panel);
    var b = boardOf(panel);
    if (!b) return;
    var style = b.style;
    var box = b.box;
    var overlay = document.createElement("div");
    overlay.className = "board-overlay";
    overlay.setAttribute("role", "group");
    overlay.setAttribute("aria-label", w("board_moves"));
    box.appendChild(overlay);
    var host = panel.closest("li.puzzle");
    var status = panel.querySelector(".solve-status");
    var choices = panel.querySelector(".solve-choices");
    var answer = host ? host.querySelector("details.answer") : null;
    var key = "damas:resolvido:" + d.key;
    var me = b.position(d.nodes[0].f).turn;
    var intro = side("play_as", me);
    var node, selected, busy, finished, seen;
    var round = 0; /* bumped on restart, so a defence still on its timer is dropped */
    var cells = {};
    style.squares.forEach(function (s) {
      cells[s[0]] = [(100 * s[1]) / style.w, (100 * s[2]) / style.h];
    });
    var size = [(100 * style.square) / style.w, (100 * style.square) / style.h];
    var focusName = null;

    function say(text, kind) {
      status.textContent = text;
      status.className = "solve-status" + (kind ? " " + kind : "");
    }

    function showNode(n, move, mover) {
      var label = (move ? playedText(mover, move) + " " : "") + b.describe(n.f);
      var marks = marksOf(move);
      b.show({ f: n.f, r: marks.r, c: marks.c, a: marks.a }, label);
    }

    /* The squares the student may click, one tab stop for the board: arrows move between them. */
    function square(name, label, cls, act) {
      var c = cells[name];
      var btn = button("", "sq " + cls, label);
      btn.style.left = c[0] + "%";
      btn.style.top = c[1] + "%";
      btn.style.width = size[0] + "%";
      btn.style.height = size[1] + "%";
      btn.setAttribute("data-square", name);
      btn.tabIndex = -1;
      btn.addEventListener("click", function () {
        focusName = name;
        act();
      });
      overlay.appendChild(btn);
      return btn;
    }

    function draw(focusFirst) {
      var hadFocus = overlay.contains(document.activeElement);
      overlay.textContent = "";
      if (finished || busy || !node.moves) return;
      var froms = unique(node.moves.map(function (m) { return m.from; }));
      var all = [];
      if (selected) {
        var dests = unique(node.moves.filter(function (m) { return m.from === selected; }).map(function (m) { return m.to; }));
        dests.forEach(function (t) {
          all.push(square(t, w("move_piece", { from: selected, to: t }), "dest", function () { choose(selected, t); }));
        });
        all.push(square(selected, w("piece_chosen", { square: selected }), "sel", function () {
          selected = null;
          draw(true);
        }));
      }
      froms.forEach(function (f) {
        if (f === selected) return;
        all.push(square(f, w("choose_piece", { square: f }), "from", function () {
          selected = f;
          draw(true);
        }));
      });
      if (!all.length) return;
      var current = all.filter(function (x) { return x.getAttribute("data-square") === focusName; })[0] || all[0];
      current.tabIndex = 0;
      if (hadFocus || focusFirst) current.focus();
    }

    overlay.addEventListener("keydown", function (e) {
      var btns = Array.prototype.slice.call(overlay.querySelectorAll("button"));
      var i = btns.indexOf(document.activeElement);
      if (i < 0) return;
      var step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
      var to = null;
      if (step) to = (i + step + btns.length) % btns.length;
      if (e.key === "Home") to = 0;
      if (e.key === "End") to = btns.length - 1;
      if (to === null) return;
      e.preventDefault();
      btns[i].tabIndex = -1;
      btns[to].tabIndex = 0;
      focusName = btns[to].getAttribute("data-square");
      btns[to].focus();
    });

    function choose(from, to) {
      var found = node.moves.filter(function (m) { return m.from === from && m.to === to; });
      if (found.length === 1) return play(found[0]);
      choices.textContent = "";
      var p = document.createElement("p");
      p.textContent = w("which_way");
      choices.appendChild(p);
      found.forEach(function (m) {
        var btn = button(m.t, "path");
        btn.addEventListener("click", function () { play(m); });
        choices.appendChild(btn);
      });
      choices.querySelector("button").focus();
    }

    function solved() {
      finished = true;
      say(w("solved"), "right");
      store(key, "1");
      if (host) host.classList.add("solved");
      draw();
      panel.querySelector('[data-act="restart"]').focus();
    }

    /* The defender varies its replies: the one met least often on this page, the main one first. */
    function defend(after) {
      var best = after.replies[0];
      after.replies.forEach(function (r) {
        if ((seen[r.next] || 0) < (seen[best.next] || 0)) best = r;
      });
      seen[best.next] = (seen[best.next] || 0) + 1;
      return best;
    }

    function play(m) {
      selected = null;
      choices.textContent = "";
      if (m.next !== undefined) {
        var after = d.nodes[m.next];
        node = after;
        showNode(after, m, me);
        if (after.done) return solved();
        busy = true;
        draw();
        var reply = defend(after);
        say(side("good_move", 1 - me, { move: m.t }), "good");
        var mine = round;
        window.setTimeout(function () {
          if (mine !== round) return;
          busy = false;
          node = d.nodes[reply.next];
          showNode(node, reply, 1 - me);
          if (node.done) return solved();
          var text = side("reply_your_turn", 1 - me, { move: reply.t });
          if (after.replies.length > 1) text += " " + w("other_defences", { count: after.replies.length - 1 });
          say(text, "good");
          draw(true);
        }, DELAY);
        return;
      }
      if (m.win) {
        say(w("also_wins", { move: m.t }), "warn");
        draw(true);
        return;
      }
      var text = w("not_this", { move: m.t });
      if (m.ref) {
        var before = node;
        showNode({ f: m.ref.f }, m.ref, 1 - me);
        text += " " + side("they_reply", 1 - me, { reply: m.ref.t, line: m.ref.line });
        node = before;
      }
      say(text, "wrong");
      overlay.textContent = "";
      var again = button(w("try_again"), "retry");
      again.addEventListener("click", function () {
        choices.textContent = "";
        if (node === d.nodes[0]) b.show(null);
        else showNode(node, node.last, node.lastBy);
        say(intro, "");
        draw(true);
      });
      choices.appendChild(again);
      again.focus();
    }

    function start() {
      round += 1;
      node = d.nodes[0];
      selected = null;
      busy = false;
      finished = false;
      choices.textContent = "";
      b.show(null);
      say(store(key) ? w("already_solved") + " " + intro : intro, "");
      draw();
    }

    /* remember, per node, the move that led there (to draw it again after a wrong try) */
    d.nodes.forEach(function (n) {
      (n.moves || []).forEach(function (m) {
        if (m.next !== undefined) { d.nodes[m.next].last = m; d.nodes[m.next].lastBy = me; }
      });
      (n.replies || []).forEach(function (r) { d.nodes[r.next].last = r; d.nodes[r.next].lastBy = 1 - me; });
    });
    seen = {};

    panel.addEventListener("click", function (e) {
      var act = e.target.closest("[data-act]");
      if (!act) return;
      if (act.getAttribute("data-act") === "restart") {
        if (answer) answer.open = false;
        start();
        act.focus();
      }
    });
    if (answer) {
      /* Opening the solution ends the game and shows the line on the board, with its replay. */
      answer.addEventListener("toggle", function () {
        var group = answer.querySelector("[data-replay]");
        if (!answer.open) return;
        round += 1;
        busy = false;
        finished = true;
        draw();
        if (group && group._replay) group._replay.show(0);
        say(w("the_solution"), "");
      });
    }
    if (store(key) && host) host.classList.add("solved");
    panel.hidden = false;
    start();
  }

  /* ---- position editor ------------------------------------------------------------------- */

  var PIECE_WORDS = { w: w("white man"), W: w("white king"), b: w("black man"), B: w("black king") };

  function editorFen(v, pieces, turn) {
    var where = {};
    v.rows.forEach(function (row, r) {
      row.forEach(function (name, f) {
        if (name) where[name] = [v.rows.length - 1 - r, f];
      });
    });
    var parts = [turn];
    ["w", "b"].forEach(function (color) {
      var mine = Object.keys(pieces).filter(function (s) { return pieces[s].toLowerCase() === color; });
      var isKing = function (s) { return pieces[s] === color.toUpperCase(); };
      var items = [];
      if (v.algebraic) {
        mine.sort(function (a, c) { return where[a][0] - where[c][0] || where[a][1] - where[c][1]; });
        items = mine.map(function (s) { return (isKing(s) ? "K" : "") + s; });
      } else {
        var nums = mine.map(function (s) { return v.order.indexOf(s) + 1; }).sort(function (a, c) { return a - c; });
        var king = function (n) { return isKing(v.order[n - 1]); };
        for (var i = 0; i < nums.length; ) {
          var j = i;
          while (j + 1 < nums.length && nums[j + 1] === nums[j] + 1 && king(nums[j + 1]) === king(nums[i])) j++;
          var prefix = king(nums[i]) ? "K" : "";
          if (j - i >= 2) items.push(prefix + nums[i] + "-" + nums[j]);
          else for (var x = i; x <= j; x++) items.push(prefix + nums[x]);
          i = j + 1;
        }
      }
      parts.push(color.toUpperCase() + items.join(","));
    });
    return parts.join(":");
  }

  function editorDrawing(v, pieces) {
    return (
      v.rows
        .map(function (row) {
          return row.map(function (name) { return name === null ? "-" : pieces[name] || "."; }).join(" ");
        })
        .join("\n") + "\n"
    );
  }

  /* PDN FEN, read as the engine reads it (generator/rules/fen.py); errors in pt-BR. */
  function editorParse(v, text) {
    var fen = text.trim();
    if (fen.toLowerCase() === "start") fen = v.start;
    if (fen.length >= 2 && fen[0] === '"' && fen[fen.length - 1] === '"') fen = fen.slice(1, -1).trim();
    if (fen.slice(-1) === ".") fen = fen.slice(0, -1);
    var fields = fen.split(":").map(function (f) { return f.trim(); });
    if (!fields[0]) throw new Error(w("fen_empty"));
    var head = fields[0].toUpperCase();
    if (head !== "W" && head !== "B") throw new Error(w("fen_side", { got: fields[0] }));
    var rowOf = {};
    v.rows.forEach(function (row, r) {
      row.forEach(function (name) {
        if (name) rowOf[name] = r;
      });
    });
    function square(t) {
      var s = t.trim().toLowerCase();
      if (v.algebraic) {
        if (!/^[a-z][0-9]+$/.test(s)) throw new Error(w("not_square_alg", { got: t }));
        if (!(s in rowOf)) throw new Error(w("not_playable", { got: t }));
        return s;
      }
      if (!/^[0-9]+$/.test(s)) throw new Error(w("not_number", { got: t }));
      var n = parseInt(s, 10);
      if (n < 1 || n > v.order.length) throw new Error(w("no_such_square", { num: n, max: v.order.length }));
      return v.order[n - 1];
    }
    var pieces = {};
    var seen = {};
    fields.slice(1).forEach(function (field) {
      if (!field) return;
      var letter = field[0].toUpperCase();
      if (letter !== "W" && letter !== "B") {
        if (!Object.keys(seen).length) throw new Error(w("expected_list", { got: field }));
        return; /* unknown trailing fields (lidraughts' H0, F1) are ignored */
      }
      if (seen[letter]) throw new Error(w(letter === "W" ? "white_twice" : "black_twice"));
      seen[letter] = true;
      var color = letter.toLowerCase();
      field.slice(1).split(",").forEach(function (token) {
        token = token.trim();
        if (!token) return;
        var king = token[0] === "K" || token[0] === "k";
        var body = king ? token.slice(1) : token;
        var squares = [];
        if (body.indexOf("-") >= 0) {
          if (v.algebraic) throw new Error(w("ranges_numbered", { got: body }));
          var ends = body.split("-");
          var a = v.order.indexOf(square(ends[0]));
          var c = v.order.indexOf(square(ends.slice(1).join("-")));
          if (a > c) throw new Error(w("range_backwards", { got: body }));
          squares = v.order.slice(a, c + 1);
        } else {
          squares = [square(body)];
        }
        squares.forEach(function (s) {
          if (pieces[s]) throw new Error(w("square_twice", { num: s }));
          if (!king && rowOf[s] === v.promo[color]) {
            throw new Error(w(color === "w" ? "white_on_crown" : "black_on_crown", { square: s }));
          }
          pieces[s] = king ? color.toUpperCase() : color;
        });
      });
    });
    if (!Object.keys(seen).length) throw new Error(w("lists_missing"));
    ["w", "b"].forEach(function (color) {
      var count = Object.keys(pieces).filter(function (s) { return pieces[s].toLowerCase() === color; }).length;
      if (count > v.max) throw new Error(w("too_many", { count: count, max: v.max }));
    });
    return { turn: head, pieces: pieces };
  }

  function initEditor(ed) {
    var tables = data(ed);
    var byName = {};
    tables.forEach(function (t) { byName[t.name] = t; });
    var select = ed.querySelector("#ed-variant");
    var grid = ed.querySelector(".ed-board");
    var fenOut = ed.querySelector("#ed-fen");
    var drawOut = ed.querySelector("#ed-drawing");
    var fenIn = ed.querySelector("#ed-fen-in");
    var msg = ed.querySelector(".ed-msg");
    var copyFen = ed.querySelector("#ed-copy-fen");
    var copyDrawing = ed.querySelector("#ed-copy-drawing");
    var v = null;
    var pieces = {};
    var turn = "W";
    var cells = [];
    var focusAt = 0;

    function tool() {
      var t = ed.querySelector('input[name="ed-tool"]:checked');
      return t ? t.value : "w";
    }

    function build() {
      grid.textContent = "";
      cells = [];
      grid.style.gridTemplateColumns = "repeat(" + v.rows[0].length + ", 1fr)";
      v.rows.forEach(function (row, r) {
        row.forEach(function (name) {
          var el;
          if (name === null) {
            el = document.createElement("span");
            el.className = "ed-light";
          } else {
            el = button("", "ed-sq");
            el.setAttribute("data-square", name);
            el.tabIndex = -1;
            el.setAttribute("data-row", r);
            cells.push(el);
          }
          grid.appendChild(el);
        });
      });
      focusAt = Math.min(focusAt, cells.length - 1);
    }

    function update() {
      cells.forEach(function (el, i) {
        var name = el.getAttribute("data-square");
        var p = pieces[name];
        el.className = "ed-sq" + (p ? " pc-" + (p.toLowerCase() === "w" ? "w" : "b") + (p === p.toUpperCase() ? " king" : "") : "");
        el.textContent = "";
        var label = document.createElement("span");
        label.className = "ed-num"; /* above the piece, never under it (style.css) */
        label.textContent = name;
        el.appendChild(label);
        el.setAttribute("aria-label", name + ": " + (p ? PIECE_WORDS[p] : w("empty")));
        el.tabIndex = i === focusAt ? 0 : -1;
      });
      ed.querySelectorAll('input[name="ed-turn"]').forEach(function (r) { r.checked = r.value === turn; });
      var fen = editorFen(v, pieces, turn);
      fenOut.value = fen;
      drawOut.value = editorDrawing(v, pieces);
      copyFen.setAttribute("data-copy-text", fen);
      copyDrawing.setAttribute("data-copy-text", drawOut.value);
    }

    function place(name) {
      var t = tool();
      var cur = pieces[name];
      msg.textContent = "";
      if (t === "x" || cur === t) {
        delete pieces[name];
      } else {
        var color = t.toLowerCase();
        var cell = cells.filter(function (c) { return c.getAttribute("data-square") === name; })[0];
        if (t === color && Number(cell.getAttribute("data-row")) === v.promo[color]) {
          msg.textContent = w("would_be_king");
          return;
        }
        var count = Object.keys(pieces).filter(function (s) { return s !== name && pieces[s].toLowerCase() === color; }).length;
        if (count >= v.max) {
          msg.textContent = w("too_many_each", { max: v.max });
          return;
        }
        pieces[name] = t;
      }
      update();
    }

    function setVariant(name) {
      v = byName[name];
      pieces = {};
      focusAt = 0;
      build();
      update();
    }

    grid.addEventListener("click", function (e) {
      var el = e.target.closest(".ed-sq");
      if (!el) return;
      focusAt = cells.indexOf(el);
      place(el.getAttribute("data-square"));
      cells[focusAt].focus();
    });
    grid.addEventListener("keydown", function (e) {
      var el = e.target.closest(".ed-sq");
      if (!el) return;
      var i = cells.indexOf(el);
      var here = el.getBoundingClientRect();
      var pick = null;
      function nearest(filter) {
        var best = null;
        var bestD = Infinity;
        cells.forEach(function (c, j) {
          var r = c.getBoundingClientRect();
          if (!filter(r)) return;
          var dist = Math.abs(r.left - here.left) + Math.abs(r.top - here.top);
          if (dist < bestD) { best = j; bestD = dist; }
        });
        return best;
      }
      if (e.key === "ArrowRight") pick = nearest(function (r) { return r.left > here.left + 1 && Math.abs(r.top - here.top) < 2; });
      if (e.key === "ArrowLeft") pick = nearest(function (r) { return r.left < here.left - 1 && Math.abs(r.top - here.top) < 2; });
      if (e.key === "ArrowDown") pick = nearest(function (r) { return r.top > here.top + 1; });
      if (e.key === "ArrowUp") pick = nearest(function (r) { return r.top < here.top - 1; });
      if (e.key === "Home") pick = 0;
      if (e.key === "End") pick = cells.length - 1;
      if (pick === null && /^Arrow|^Home$|^End$/.test(e.key)) pick = i;
      if (pick !== null) {
        e.preventDefault();
        focusAt = pick;
        cells.forEach(function (c, j) { c.tabIndex = j === pick ? 0 : -1; });
        cells[pick].focus();
      }
    });
    select.addEventListener("change", function () {
      /* A new board starts empty: ask before the pieces set up so far are lost. */
      if (Object.keys(pieces).length && !window.confirm(w("switch_clears", { variant: byName[select.value].title }))) {
        select.value = v.name;
        return;
      }
      setVariant(select.value);
    });
    ed.querySelectorAll('input[name="ed-turn"]').forEach(function (r) {
      r.addEventListener("change", function () { turn = r.value; update(); });
    });
    ed.querySelector("#ed-clear").addEventListener("click", function () { pieces = {}; msg.textContent = ""; update(); });
    ed.querySelector("#ed-start").addEventListener("click", function () {
      var p = editorParse(v, v.start);
      pieces = p.pieces;
      turn = p.turn;
      msg.textContent = "";
      update();
    });
    ed.querySelector("#ed-read").addEventListener("click", function () {
      try {
        var p = editorParse(v, fenIn.value);
        pieces = p.pieces;
        turn = p.turn;
        msg.textContent = w("fen_read");
        update();
      } catch (err) {
        msg.textContent = err.message;
      }
    });
    fenIn.addEventListener("keydown", function (e) {
      if (e.key === "Enter") {
        e.preventDefault();
        ed.querySelector("#ed-read").click();
      }
    });
    setVariant(select.value);
    ed.hidden = false;
    var note = document.querySelector(".ed-noscript");
    if (note) note.hidden = true;
  }

  /* A board and its controls come to life when they near the screen: a book page of a hundred
     puzzles opens as fast as one of three. Until then the board keeps its place (its proportions). */
  function wake(host) {
    if (host._awake) return;
    host._awake = true;
    var box = host.querySelector(".board[data-board]");
    if (box) board(box);
    host.querySelectorAll("[data-replay]").forEach(initReplay);
    host.querySelectorAll("[data-solve]").forEach(initSolve);
  }

  /* the element that holds a board and its controls: a puzzle of the book, or a lesson's figure */
  function hostOf(el) {
    return el.closest("li.puzzle") || el.closest("figure");
  }

  function wakeAll() {
    document.querySelectorAll(".board[data-board]").forEach(function (box) {
      var host = hostOf(box);
      if (host) wake(host);
    });
  }

  function init() {
    document.querySelectorAll("[data-tools]").forEach(function (el) { el.hidden = false; });
    var hosts = [];
    document.querySelectorAll(".board[data-board]").forEach(function (box) {
      var style = STYLES[JSON.parse(box.getAttribute("data-board")).b];
      if (style) box.style.aspectRatio = style.w + " / " + style.h;
      var host = hostOf(box);
      if (host) hosts.push(host);
    });
    if (!window.IntersectionObserver) {
      hosts.forEach(wake);
    } else {
      var seen = new IntersectionObserver(function (entries) {
        entries.forEach(function (e) {
          if (e.isIntersecting) {
            seen.unobserve(e.target);
            wake(e.target);
          }
        });
      }, { rootMargin: "600px 0px" });
      hosts.forEach(function (host) { seen.observe(host); });
    }
    /* a link to one puzzle (#p12) wakes it at once, so its controls are there when it is reached */
    function fromHash() {
      var target = location.hash && document.getElementById(location.hash.slice(1));
      var host = target && hostOf(target);
      if (host && host.querySelector(".board[data-board]")) wake(host);
    }
    window.addEventListener("hashchange", fromHash);
    fromHash();
    var ed = document.getElementById("editor");
    if (ed) initEditor(ed);
  }

  /* Printing shows each board as the build drew it: the first position, not a move half played. */
  window.addEventListener("beforeprint", function () {
    wakeAll();
    document.querySelectorAll(".board.drawn").forEach(function (box) { box._board.show(null); });
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
