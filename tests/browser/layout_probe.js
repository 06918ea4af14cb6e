// layout_probe.js - measured in the browser by check_layout.py, never part
// of a report: appended to a copy of the report, it runs after layout and
// writes what it found into <pre id="iochar-layout"> as JSON, which
// Chromium's --dump-dom then prints.
//
// Found: pairs of text boxes inside one chart whose painted boxes overlap
// (labels over labels, titles over ticks), text that leaves its chart's
// box or the page, and elements wider than the page (horizontal scroll).
(function () {
  "use strict";
  var SLACK = 0.5; // px: boxes that only touch do not overlap
  var out = { width: document.documentElement.clientWidth, overlaps: [],
              outside: [], wide: [], texts: 0, charts: 0 };

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

  var charts = document.querySelectorAll("svg.chart");
  out.charts = charts.length;
  charts.forEach(function (svg) {
    var frame = box(svg);
    var texts = Array.prototype.filter.call(svg.querySelectorAll("text"),
      function (t) { var r = box(t); return r.width > 0 && r.height > 0 &&
                     (t.textContent || "").trim() !== ""; });
    out.texts += texts.length;
    var quads = texts.map(corners);
    for (var i = 0; i < texts.length; i++) {
      if (!inside(quads[i], frame))
        out.outside.push({ chart: chartName(svg), text: name(texts[i]) });
      for (var j = i + 1; j < texts.length; j++)
        if (overlap(quads[i], quads[j]))
          out.overlaps.push({ chart: chartName(svg), a: name(texts[i]),
                              b: name(texts[j]) });
    }
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
