// layout_probe.js - measured in the browser by check_layout.py, never part
// of a report: appended to a copy of the report, it runs after layout and
// writes what it found into <pre id="iochar-layout"> as JSON, which
// Chromium's --dump-dom then prints.
//
// Found: pairs of text boxes inside one chart whose painted boxes overlap
// (labels over labels, titles over ticks), text over a data marker (class
// "pt", the circled "chosen") or across a rule (the dashed limit), legend
// entries closer than LEGEND_GAP, an axis whose ticks mix formats (units
// or decimals; a log axis may change unit per decade, an axis with the
// caller's own format is skipped), text that leaves its chart's box or the
// page, elements wider than the page (horizontal scroll), and a results
// table (summary, compare, sets, rate-limited points) that does not fit
// the page.
(function () {
  "use strict";
  var SLACK = 0.5; // px: boxes that only touch do not overlap
  var LEGEND_GAP = 4; // px between legend entries of one row
  var out = { width: document.documentElement.clientWidth, overlaps: [],
              outside: [], wide: [], texts: 0, charts: 0, on_marks: [],
              legend: [], ticks: [], tables: [], marks: 0 };

  function box(el) { return el.getBoundingClientRect(); }
  function name(el) {
    var t = (el.textContent || "").trim().replace(/\s+/g, " ");
    return t.length > 40 ? t.slice(0, 40) + "..." : t;
  }
  // The painted box of an SVG text as four corners on the page: its own
  // bounding box through its transform, so tilted labels are measured as
  // tilted rectangles, not by the larger upright box around them.
  function corners(t) {
    var b = t.getBBox(), m = t.getScreenCTM(), svg = t.ownerSVGElement;
    return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height],
            [b.x, b.y + b.height]].map(function (c) {
      var p = svg.createSVGPoint();
      p.x = c[0]; p.y = c[1];
      p = p.matrixTransform(m);
      return [p.x, p.y];
    });
  }
  // Separating-axis test for two convex quadrilaterals, with SLACK so
  // boxes that only touch do not count.
  function overlap(a, b) {
    var polys = [a, b];
    for (var k = 0; k < 2; k++) {
      var q = polys[k];
      for (var i = 0; i < 4; i++) {
        var p1 = q[i], p2 = q[(i + 1) % 4];
        var nx = p2[1] - p1[1], ny = p1[0] - p2[0];
        var len = Math.hypot(nx, ny);
        if (len === 0) continue;
        nx /= len; ny /= len;
        var amin = Infinity, amax = -Infinity, bmin = Infinity, bmax = -Infinity;
        a.forEach(function (c) { var d = c[0] * nx + c[1] * ny;
                                 amin = Math.min(amin, d); amax = Math.max(amax, d); });
        b.forEach(function (c) { var d = c[0] * nx + c[1] * ny;
                                 bmin = Math.min(bmin, d); bmax = Math.max(bmax, d); });
        if (amax <= bmin + SLACK || bmax <= amin + SLACK)
          return false;
      }
    }
    return true;
  }
  function inside(q, frame) {
    return q.every(function (c) {
      return c[0] >= frame.left - SLACK && c[0] <= frame.right + SLACK &&
             c[1] >= frame.top - SLACK && c[1] <= frame.bottom + SLACK;
    });
  }
  function chartName(svg) {
    var h = svg.closest("section, div, figure");
    var title = h && h.querySelector("h2, h3, figcaption");
    return (svg.getAttribute("data-chart") || "chart") +
           (title ? " (" + name(title) + ")" : "");
  }


  function rectQuad(r) {
    return [[r.left, r.top], [r.right, r.top], [r.right, r.bottom], [r.left, r.bottom]];
  }
  // No text over a marker or across a rule.
  function checkMarks(svg, texts, quads) {
    var marks = svg.querySelectorAll(".pt, .chosen, line.limit");
    out.marks += marks.length;
    marks.forEach(function (m) {
      var q = rectQuad(box(m));
      for (var i = 0; i < texts.length; i++)
        if (overlap(quads[i], q))
          out.on_marks.push({ chart: chartName(svg), text: name(texts[i]),
                              mark: m.tagName + "." + m.getAttribute("class") });
    });
  }
  // Legend entries (swatch and text) apart by LEGEND_GAP on their row.
  function checkLegend(svg) {
    var items = Array.prototype.map.call(svg.querySelectorAll("g.legend-item"), box);
    for (var i = 0; i < items.length; i++)
      for (var j = i + 1; j < items.length; j++) {
        var a = items[i], b = items[j];
        var sameRow = a.top < b.bottom && b.top < a.bottom;
        if (sameRow && a.left < b.right + LEGEND_GAP && b.left < a.right + LEGEND_GAP)
          out.legend.push({ chart: chartName(svg), a: i, b: j });
      }
  }
  // One format per axis: the same unit (what follows the number) and the
  // same decimals on every tick of a linear axis; a log axis's unit may
  // change per decade but its ticks stay whole numbers.
  function checkTicks(svg) {
    var axes = {};
    svg.querySelectorAll("text.tick[data-axis]").forEach(function (t) {
      var a = t.getAttribute("data-axis");
      (axes[a] = axes[a] || []).push((t.textContent || "").trim());
    });
    Object.keys(axes).forEach(function (a) {
      if (/own/.test(a)) return;
      var forms = {};
      axes[a].forEach(function (s) {
        var m = /^-?[0-9,]*(\.[0-9]+)?\s*(.*)$/.exec(s);
        var dec = m && m[1] ? m[1].length - 1 : 0;
        forms[/log/.test(a) ? "dec" + dec : (m ? m[2] : s) + "|" + dec] = s;
      });
      var keys = Object.keys(forms);
      var zeroNs = !/log/.test(a) && axes[a].some(function (s) { return s === "0 ns"; }) &&
                   axes[a].some(function (s) { return !/ ns$/.test(s); });
      if (keys.length > 1 || zeroNs)
        out.ticks.push({ chart: chartName(svg), axis: a, ticks: axes[a].join(" / ") });
    });
  }

  var charts = document.querySelectorAll("svg.chart");
  out.charts = charts.length;
  charts.forEach(function (svg) {
    var frame = box(svg);
    var texts = Array.prototype.filter.call(svg.querySelectorAll("text"),
      function (t) { var r = box(t); return r.width > 0 && r.height > 0 &&
                     (t.textContent || "").trim() !== ""; });
    out.texts += texts.length;
    var quads = texts.map(corners);
    checkMarks(svg, texts, quads);
    checkLegend(svg);
    checkTicks(svg);
    for (var i = 0; i < texts.length; i++) {
      if (!inside(quads[i], frame))
        out.outside.push({ chart: chartName(svg), text: name(texts[i]) });
      for (var j = i + 1; j < texts.length; j++)
        if (overlap(quads[i], quads[j]))
          out.overlaps.push({ chart: chartName(svg), a: name(texts[i]),
                              b: name(texts[j]) });
    }
  });
  // nothing may make the page scroll sideways; the results tables fit
  document.querySelectorAll("table.summary, table.compare, table.sets, table.paced").forEach(function (t) {
    // scrolling in its own box, or sticking out of the page
    var room = Math.min(t.clientWidth, out.width - box(t).left);
    if (t.scrollWidth > room + 1)
      out.tables.push({ table: t.className, width: t.scrollWidth, room: Math.round(room) });
  });
  // nothing may make the page scroll sideways
  function tooWide(el) {
    var r = box(el);
    return r.width > 0 && r.right > out.width + 1;
  }
  // the page itself scrolls sideways only when its scroll width exceeds
  // the window; wide content inside its own scroll box does not count
  out.page_width = document.documentElement.scrollWidth;
  if (out.page_width > out.width) document.querySelectorAll("body *").forEach(function (el) {
    var r = box(el);
    // the outermost one only: its contents stick out with it
    if (tooWide(el) && !tooWide(el.parentElement) && !el.closest("svg"))
      out.wide.push({ tag: el.tagName.toLowerCase(), text: name(el),
                      right: Math.round(r.right) });
  });
  out.wide = out.wide.slice(0, 20);
  var pre = document.createElement("pre");
  pre.id = "iochar-layout";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
