// The graph of one account-Region as SVG, in columns: producers and code,
// queues, consumers and dead-letter queues, alarms. Nodes with an error
// are red, with a warning amber. Only the nodes of the queues the filters
// leave (and their neighbours) are drawn, at most MAX_NODES of them: a
// page of 10,000 queues never draws 10,000 nodes.
var SqsguardGraph = (function () {
  'use strict';
  var NS = 'http://www.w3.org/2000/svg';
  var MAX_NODES = 300;
  var W = 250, H = 46, GAP_X = 150, GAP_Y = 14, TOP = 34, LEFT = 16;
  var COLUMN = { producer: 0, code: 0, external: 0, other: 0, queue: 1, consumer: 2, dead_letter_queue: 2, alarm: 3 };
  var TITLES = ['Producers and code', 'Queues', 'Consumers and dead-letter queues', 'Alarms'];

  function svg(tag, attrs, text) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) { if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, String(attrs[k])); }
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function clip(s, n) { s = String(s); return s.length > n ? s.slice(0, n - 1) + '\u2026' : s; }

  // A queue URL drawn by its last segment, a consumer by its function's
  // name; anything else as it is.
  function label(node) {
    var name = String(node.name);
    var fn = (node.details || []).filter(function (d) { return /^function /.test(d); })[0];
    if (node.kind === 'consumer' && fn) return fn.slice(9).split(':').pop() + ' (mapping)';
    if (/^https?:\/\//.test(name)) { var parts = name.split('/').filter(Boolean); return parts[parts.length - 1] || name; }
    return name;
  }

  function worst(node) {
    var w = '';
    (node.findings || []).forEach(function (m) {
      if (m.severity === 'error') w = 'error'; else if (m.severity === 'warning' && w !== 'error') w = 'warning';
    });
    return w;
  }

  // Each scope (account-Region) with its node indexes, first-seen order.
  function scopes(graph) {
    var order = [], at = Object.create(null);
    (graph.nodes || []).forEach(function (n, i) {
      if (!(n.scope in at)) { at[n.scope] = order.length; order.push({ scope: n.scope, nodes: [] }); }
      order[at[n.scope]].nodes.push(i);
    });
    return order;
  }

  // Draw `scope` of `graph` into `box`; `keep(node)` says whether a queue
  // node passes the filters (null: every node). Returns what was drawn.
  function draw(graph, scope, box, keep) {
    while (box.firstChild) box.removeChild(box.firstChild);
    var nodes = graph.nodes || [], edges = graph.edges || [];
    var inScope = [], index = Object.create(null);
    nodes.forEach(function (n, i) { if (n.scope === scope) { inScope.push(i); index[n.id] = i; } });
    var chosen = Object.create(null), count = 0;
    function take(i) { if (!(i in chosen) && count < MAX_NODES) { chosen[i] = true; count++; } }
    var queueKinds = { queue: true, dead_letter_queue: true };
    inScope.forEach(function (i) {
      var n = nodes[i];
      if (keep === null || (queueKinds[n.kind] && keep(n))) take(i);
    });
    // Neighbours of what is kept: who feeds it, reads it, watches it.
    if (keep !== null) {
      edges.forEach(function (e) {
        var a = index[e.from], b = index[e.to];
        if (a === undefined || b === undefined) return;
        if (a in chosen) take(b);
        if (b in chosen) take(a);
      });
    }
    var total = keep === null ? inScope.length : count;
    var columns = [[], [], [], []];
    Object.keys(chosen).map(Number).sort(function (a, b) { return a - b; }).forEach(function (i) {
      var c = COLUMN[nodes[i].kind]; columns[c === undefined ? 0 : c].push(i);
    });
    var used = columns.map(function (c, k) { return c.length ? k : -1; }).filter(function (k) { return k >= 0; });
    var pos = Object.create(null), height = 0;
    used.forEach(function (k, col) {
      columns[k].forEach(function (i, row) {
        pos[i] = { x: LEFT + col * (W + GAP_X), y: TOP + row * (H + GAP_Y) };
        height = Math.max(height, pos[i].y + H);
      });
    });
    var width = LEFT * 2 + Math.max(1, used.length) * (W + GAP_X) - GAP_X;
    var root = svg('svg', { width: width, height: height + 16, viewBox: '0 0 ' + width + ' ' + (height + 16), role: 'img' });
    root.appendChild(svg('title', {}, 'The pipeline of ' + scope));
    used.forEach(function (k, col) {
      root.appendChild(svg('text', { x: LEFT + col * (W + GAP_X), y: 18, 'class': 'column' }, TITLES[k]));
    });
    var drawnEdges = 0;
    edges.forEach(function (e) {
      var a = index[e.from], b = index[e.to];
      if (a === undefined || b === undefined || !(a in pos) || !(b in pos)) return;
      var p = pos[a], q = pos[b], x1, x2, d;
      if (q.x > p.x) { x1 = p.x + W; x2 = q.x; } else if (q.x < p.x) { x1 = p.x; x2 = q.x + W; } else { x1 = p.x + W; x2 = q.x + W; }
      var y1 = p.y + H / 2, y2 = q.y + H / 2, bend = q.x === p.x ? 40 : (x2 - x1) / 2;
      d = 'M' + x1 + ',' + y1 + ' C' + (x1 + bend) + ',' + y1 + ' ' + (x2 - (q.x === p.x ? -40 : bend)) + ',' + y2 + ' ' + x2 + ',' + y2;
      var path = svg('path', { d: d, 'class': 'edge ' + e.kind });
      path.appendChild(svg('title', {}, e.kind.replace(/_/g, ' ') + (e.label ? ': ' + e.label : '')));
      root.appendChild(path);
      root.appendChild(svg('polygon', { points: x2 + ',' + y2 + ' ' + (x2 - 7) + ',' + (y2 - 4) + ' ' + (x2 - 7) + ',' + (y2 + 4), fill: '#8c959f' }));
      // The label on the curve's middle, centred, on a halo of the
      // background, so that labels of edges that cross stay readable.
      if (e.label) root.appendChild(svg('text', { x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 3, 'class': 'label' }, clip(e.label, 26)));
      drawnEdges++;
    });
    Object.keys(pos).forEach(function (key) {
      var i = Number(key), n = nodes[i], p = pos[i], sev = worst(n);
      var g = svg('g', { 'class': 'node ' + sev, 'data-kind': n.kind, transform: 'translate(' + p.x + ',' + p.y + ')' });
      g.appendChild(svg('rect', { width: W, height: H, rx: n.kind === 'queue' || n.kind === 'dead_letter_queue' ? 12 : 3 }));
      g.appendChild(svg('text', { x: 8, y: 18 }, clip(label(n), 36)));
      var marks = {};
      (n.findings || []).forEach(function (m) { marks[m.rule] = (marks[m.rule] || 0) + 1; });
      var sub = Object.keys(marks).map(function (r) { return marks[r] > 1 ? r + ' \u00d7' + marks[r] : r; }).join(', ');
      g.appendChild(svg('text', { x: 8, y: 36, 'class': 'sub' }, clip(sub || (n.details || [])[0] || n.kind.replace(/_/g, ' '), 40)));
      var tip = [label(n)].concat(n.details || [], (n.findings || []).map(function (m) { return m.rule + ' ' + m.severity + ': ' + m.message; }), n.notes || []);
      g.appendChild(svg('title', {}, tip.join('\n')));
      root.appendChild(g);
    });
    box.appendChild(root);
    return { nodes: count, edges: drawnEdges, total: total, capped: count >= MAX_NODES };
  }

  return { draw: draw, scopes: scopes, MAX_NODES: MAX_NODES };
})();
