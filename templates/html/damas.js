/* damas: interactive diagrams. Replay of lines, puzzles solved on the board, copy buttons, and the
   position editor. Vanilla JavaScript, no framework, no network, works from file://.
   The browser knows no rules: every position, legal move and board table comes from the build as
   JSON in the page (generator/render/interactive.py). Without this script the pages stay as they
   are: the controls are hidden until it runs. */
(function () {
  "use strict";

  var script = document.currentScript;
  var ROOT = script ? script.getAttribute("src").replace(/damas\.js$/, "") : "";
  var DELAY = 600; /* ms between the student's move and the defence */
  /* The words of the page's language, from the build's message catalog (generator/render/jswords.py). */
  var WORDS = (function () {
    var el = document.getElementById("damas-words");
    try {
      return el ? JSON.parse(el.textContent) : {};
    } catch (e) {
      return {};
    }
  })();
  function w(key, args) {
    var text = WORDS[key] || key;
    return text.replace(/%\((\w+)\)s/g, function (all, name) {
      return args && name in args ? String(args[name]) : all;
    });
  }

  function data(el) {
    return JSON.parse(el.querySelector('script[type="application/json"]').textContent);
  }

  function boardImg(el) {
    var host = el.closest("figure, li.puzzle");
    return host ? host.querySelector("img") : null;
  }

  function button(text, cls, label) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    if (cls) b.className = cls;
    if (label) b.setAttribute("aria-label", label);
    return b;
  }

  /* One per diagram image: shows a step file, or the original picture again. */
  function board(img) {
    if (img._board) return img._board;
    var original = { src: img.getAttribute("src"), alt: img.alt };
    img._board = {
      img: img,
      show: function (src, alt) {
        if (!src) {
          img.setAttribute("src", original.src);
          img.alt = original.alt;
        } else {
          img.setAttribute("src", ROOT + src);
          img.alt = alt;
        }
      },
      preload: function (src) {
        if (src) new Image().src = ROOT + src;
      },
    };
    return img._board;
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
    var what = btn.textContent.replace(/^Copiar /, "");
    function done() {
      status.textContent = what + " copiado.";
    }
    function fallback() {
      var old = btn.parentNode.querySelector("textarea.copy-fallback");
      if (old) old.remove();
      var area = document.createElement("textarea");
      area.className = "copy-fallback";
      area.readOnly = true;
      area.value = text;
      area.setAttribute("aria-label", what);
      btn.parentNode.appendChild(area);
      area.focus();
      area.select();
      var ok = false;
      try {
        ok = document.execCommand("copy");
      } catch (e) {
        ok = false;
      }
      if (ok) {
        area.remove();
        btn.focus();
        done();
      } else {
        status.textContent = w("selected");
      }
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, fallback);
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
    var img = boardImg(group);
    if (!img) return;
    var b = board(img);
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
      else b.show(d.steps[k - 1].svg, d.steps[k - 1].alt);
      if (k < n) b.preload(d.steps[k].svg);
      spans.forEach(function (s, j) {
        if (j === k - 1) s.setAttribute("aria-current", "step");
        else s.removeAttribute("aria-current");
      });
      status.textContent =
        k === 0 ? w("line_start") : w("move_of", { num: k, count: n, move: d.steps[k - 1].text });
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

  function wrapImg(img) {
    var wrap = img.parentNode;
    if (!wrap.classList.contains("board-wrap")) {
      wrap = document.createElement("div");
      wrap.className = "board-wrap";
      img.parentNode.insertBefore(wrap, img);
      wrap.appendChild(img);
      var overlay = document.createElement("div");
      overlay.className = "board-overlay";
      wrap.appendChild(overlay);
    }
    return wrap.querySelector(".board-overlay");
  }

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
    var img = boardImg(panel);
    if (!img) return;
    var b = board(img);
    var overlay = wrapImg(img);
    var host = panel.closest("li.puzzle");
    var status = panel.querySelector(".solve-status");
    var choices = panel.querySelector(".solve-choices");
    var key = "damas:resolvido:" + d.key;
    var other = d.other;
    var intro = status.textContent;
    var node, selected, busy, finished;
    var round = 0; /* bumped on restart, so a defence still on its timer is dropped */

    function say(text, kind) {
      status.textContent = text;
      status.className = "solve-status" + (kind ? " " + kind : "");
    }

    function square(name, label, cls, act) {
      var c = d.cells[name];
      var btn = button("", "sq " + cls, label);
      btn.style.left = c[0] + "%";
      btn.style.top = c[1] + "%";
      btn.style.width = d.size[0] + "%";
      btn.style.height = d.size[1] + "%";
      btn.setAttribute("data-square", name);
      btn.addEventListener("click", act);
      overlay.appendChild(btn);
      return btn;
    }

    function draw(focusFirst) {
      var hadFocus = overlay.contains(document.activeElement);
      overlay.textContent = "";
      if (finished || busy || !node.moves) return;
      var froms = unique(node.moves.map(function (m) { return m.from; }));
      var first = null;
      if (selected) {
        var dests = unique(
          node.moves.filter(function (m) { return m.from === selected; }).map(function (m) { return m.to; })
        );
        dests.forEach(function (t) {
          var btn = square(t, w("move_piece", { from: selected, to: t }), "dest", function () {
            choose(selected, t);
          });
          first = first || btn;
        });
        square(selected, w("piece_chosen", { square: selected }), "sel", function () {
          selected = null;
          draw(true);
        });
      }
      froms.forEach(function (f) {
        if (f === selected) return;
        var btn = square(f, w("choose_piece", { square: f }), "from", function () {
          selected = f;
          draw(true);
        });
        first = first || btn;
      });
      if (first && (hadFocus || focusFirst)) first.focus();
    }

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

    function play(m) {
      selected = null;
      choices.textContent = "";
      if (m.next !== undefined) {
        var after = d.nodes[m.next];
        b.show(after.svg, after.alt);
        if (after.done) return solved();
        busy = true;
        draw();
        say(w("good_move", { move: m.t, side: other }), "good");
        b.preload(d.nodes[after.reply.next].svg);
        var mine = round;
        window.setTimeout(function () {
          if (mine !== round) return;
          busy = false;
          node = d.nodes[after.reply.next];
          b.show(node.svg, node.alt);
          if (node.done) return solved();
          say(w("reply_your_turn", { side: other, move: after.reply.t }), "good");
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
        b.show(m.ref.reply_svg, w("after_reply", { move: m.t, side: other, reply: m.ref.reply }));
        text += " " + w("they_reply", { side: other, reply: m.ref.reply, line: m.ref.line });
      }
      say(text, "wrong");
      overlay.textContent = "";
      var again = button(w("try_again"), "retry");
      again.addEventListener("click", function () {
        choices.textContent = "";
        b.show(node.svg, node.alt);
        say(w("play_as", { side: d.side }), "");
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

    panel.addEventListener("click", function (e) {
      var act = e.target.closest("[data-act]");
      if (!act) return;
      var what = act.getAttribute("data-act");
      if (what === "hint") panel.querySelector(".solve-hint").hidden = false;
      if (what === "restart") {
        panel.querySelector(".solve-replay").hidden = true;
        start();
        act.focus();
      }
      if (what === "solution") {
        round += 1;
        busy = false;
        var box = panel.querySelector(".solve-replay");
        box.hidden = false;
        finished = true;
        draw();
        var group = box.querySelector("[data-replay]");
        if (group._replay) group._replay.show(0);
        say(w("the_solution"), "");
        group.querySelector('[data-go="forward"]').focus();
      }
    });
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
        el.textContent = v.algebraic ? name : name;
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
    select.addEventListener("change", function () { setVariant(select.value); });
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

  function init() {
    document.querySelectorAll("[data-tools]").forEach(function (el) { el.hidden = false; });
    document.querySelectorAll("[data-replay]").forEach(initReplay);
    document.querySelectorAll("[data-solve]").forEach(initSolve);
    var ed = document.getElementById("editor");
    if (ed) initEditor(ed);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
